export { createClientStore, type ClientStore } from './client-store.js';
export { createClientRegistry } from './client-registry.js';
