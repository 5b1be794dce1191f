export { boundChildren } from './bound-children.js';
export { createReplyCounter } from './reply-counter.js';
