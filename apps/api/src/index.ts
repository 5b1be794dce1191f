export { buildApi, type Api } from './build-api.js';
export { createApp, type AppDeps } from './app.js';
