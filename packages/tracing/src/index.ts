export { startTracing, type Tracing } from './tracing.js';
