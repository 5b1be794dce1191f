export * from './redis-keys.js';
export * from './shard-layout.js';
export * from './redis-connection.js';
export * from './redis-errors.js';
export * from './lua-script.js';
export * from './lua-steps.js';
export * from './watched-subscription.js';

export * from './replica-confirmation.js';
export * from './shard-migration.js';
