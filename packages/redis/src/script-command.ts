import { createRequire } from 'node:module';
import { Command } from 'ioredis';
import { isReviewedSource } from './reviewed-source.js';

/**
 * ioredis 6.0.0 runs a script defined on a connection (`defineCommand`: BullMQ defines all its
 * scripts so) through a `Script`, whose constructor gives the script a Command class of its own. That
 * class's `toWritable` assigns an arrow straight to a property (`this.reject = (err) => …`) for every
 * call: V8 allocates such a function literal in the old generation (command-promise.ts has the
 * first case), and the dead closure keeps the command, its arguments and its reply alive until a
 * full collection. Paced calls of a defined script promoted about 13 % of what they allocated, an
 * EVALSHA through the same connection 0.1 % (docs/design/performance-log.md, fourteenth session).
 *
 * The replacement is ioredis's Script with the arrow bound to a local first, nothing else different.
 * It is put in place of the module's export, which ioredis's `defineCommand` reads at each call, and
 * only over the exact source it was written from: another ioredis version keeps its own Script, and
 * the test that asks for the lean one fails until this is reviewed.
 */
const REVIEWED_SOURCE_SHA256 = 'a9e9ca0847dbe2d746c06479332300d95f701c647da52c766de2f8181d4fa62d';

interface CommandInternals {
  name: string;
  args: unknown[];
  reject: (error: Error) => void;
}

type CommandConstructor = new (name: string, args: unknown[], options: unknown) => object;

interface ScriptInstance {
  sha: string;
  Command: CommandConstructor;
}

type ScriptConstructor = new (lua: string, numberOfKeys?: number | null, keyPrefix?: string, readOnly?: boolean) => ScriptInstance;

const require = createRequire(import.meta.url);
const scriptModule = require('ioredis/built/Script.js') as { default: ScriptConstructor };
const ShippedScript = scriptModule.default;
const BaseCommand = Command as unknown as {
  prototype: { toWritable(this: CommandInternals, socket: object): string | Buffer };
} & CommandConstructor;
let installed = false;

/** True once the lean Script is in place (false where ioredis is not the reviewed version). */
export const leanScriptCommandInstalled = (): boolean => installed;

/** Puts the lean Script in place, once per process; a no-op for any other ioredis source. */
export function installLeanScriptCommand(): void {
  if (installed) return;
  if (!isReviewedSource(ShippedScript, REVIEWED_SOURCE_SHA256)) return;
  class LeanScript extends ShippedScript {
    constructor(lua: string, numberOfKeys: number | null = null, keyPrefix = '', readOnly = false) {
      super(lua, numberOfKeys, keyPrefix, readOnly);
      const sha = this.sha;
      const socketHasScriptLoaded = new WeakSet<object>();
      this.Command = class CustomScriptCommand extends BaseCommand {
        toWritable(this: CommandInternals, socket: object): string | Buffer {
          const origReject = this.reject;
          // Bound to a local before the property: allocated young (see above).
          const rejectScript = (err: Error): void => {
            if (err.message.indexOf('NOSCRIPT') !== -1) socketHasScriptLoaded.delete(socket);
            origReject.call(this, err);
          };
          this.reject = rejectScript;
          if (!socketHasScriptLoaded.has(socket)) {
            socketHasScriptLoaded.add(socket);
            this.name = 'eval';
            this.args[0] = lua;
          } else if (this.name === 'eval') {
            this.name = 'evalsha';
            this.args[0] = sha;
          }
          return BaseCommand.prototype.toWritable.call(this, socket);
        }
      };
    }
  }
  scriptModule.default = LeanScript;
  installed = true;
}
