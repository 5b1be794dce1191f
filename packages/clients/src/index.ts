export * from './client-store.js';
export * from './client-registry.js';
