import { ATTEMPT_SCRIPTS } from './attempt.lua.js';
import { DELIVERY_SCRIPTS } from './delivery.lua.js';
import { TURN_SCRIPTS } from './turns.lua.js';

/** Every Lua script of the reply protocol (one test checks and loads them all). */
export const REPLY_SCRIPTS = [...TURN_SCRIPTS, ...DELIVERY_SCRIPTS, ...ATTEMPT_SCRIPTS];
