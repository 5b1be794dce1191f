import { luaText } from '@dialog-relay/redis';
import type { ContextReach } from './turn.store.js';

/**
 * The engine's reach as the Lua locals `contextWindow` and `contextCustomers` of a script that takes a
 * turn (TAKE, SETTLE going on): a whole number as text (luaText), '' where the engine sets none. The
 * same for every call of one engine, so in the script's text, not in each call: a store keeps a
 * script per reach it is asked for.
 */
export const reachLua = (reach: ContextReach): string => `
local contextWindow, contextCustomers = ${reach.window === undefined ? "''" : luaText(reach.window)}, ${reach.customerTexts === undefined ? "''" : luaText(reach.customerTexts)}`;

/** The key of a reach in a store's scripts by reach. */
export const reachKey = (reach: ContextReach | undefined): string => `${reach?.window ?? ''}:${reach?.customerTexts ?? ''}`;
