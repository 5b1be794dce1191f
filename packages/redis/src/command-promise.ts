import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Command } from 'ioredis';
import { isReviewedSource } from './reviewed-source.js';

/**
 * ioredis 6.0.0 builds each command's promise in `Command#initPromise`, which assigns an arrow
 * function straight to a property (`this.reject = (err) => …`). V8 allocates a function literal
 * assigned to a property in the old generation (its parser takes such a function for a method), so
 * every command leaves an old closure behind that points at the command's young context. Until the
 * next full collection a dead closure still counts as a root for scavenges: each command, its
 * arguments, its promise and its reply survive two scavenges and are promoted, 17-21 % of all an
 * idle-paced connection allocates (scripts/bench/gc-promotion.mjs; docs/design/performance-log.md,
 * twelfth session), and each scavenge pauses for as long as copying them takes.
 *
 * The replacement below is the same method with the arrow bound to a local first, which V8
 * allocates young. It is installed only over the exact source it was written from: another ioredis
 * version keeps its own method, and the test that asks for the lean one fails until this is reviewed.
 */
const REVIEWED_SOURCE_SHA256 = '940e42e8f740cf48785923c68c0659490286390412c53b55d77fea7f207643e4';

interface CommandInternals {
  isResolved: boolean;
  isSettled: boolean;
  transformed: boolean;
  name: string;
  args: unknown[];
  errorStack?: Error;
  callback?: unknown;
  resolve: (value: unknown) => unknown;
  reject: (error: Error) => void;
  promise: Promise<unknown>;
  stringifyArguments(): void;
  _convertValue(resolve: (value: unknown) => void): (value: unknown) => unknown;
  _clearTimers(): void;
}

interface CommandClass {
  prototype: { initPromise: (this: CommandInternals) => void };
  _transformer: { argument: Record<string, ((args: unknown[]) => unknown[]) | undefined> };
}

const commandClass = Command as unknown as CommandClass;
const original = commandClass.prototype.initPromise;
let installed = false;

/** True once the lean initPromise is in place (false where ioredis is not the reviewed version). */
export const leanCommandPromiseInstalled = (): boolean => installed;

/** Puts the lean initPromise in place, once per process; a no-op for any other ioredis source. */
export function installLeanCommandPromise(): void {
  if (installed) return;
  if (!isReviewedSource(original, REVIEWED_SOURCE_SHA256)) return;
  // The helpers the original closes over, from ioredis's own files (its module directory is its __dirname).
  const require = createRequire(import.meta.url);
  const commandFile = require.resolve('ioredis/built/Command.js');
  const fromIoredis = createRequire(commandFile);
  const { optimizeErrorStack } = fromIoredis('./utils') as {
    optimizeErrorStack: (error: Error, stack: string | undefined, dirname: string) => Error;
  };
  const asCallback = (fromIoredis('standard-as-callback') as { default: (p: Promise<unknown>, cb: unknown) => Promise<unknown> }).default;
  const ioredisDirname = dirname(commandFile);

  commandClass.prototype.initPromise = function initPromise(this: CommandInternals): void {
    this.isResolved = false;
    this.isSettled = false;
    const promise = new Promise((resolve, reject) => {
      if (!this.transformed) {
        this.transformed = true;
        const transformer = commandClass._transformer.argument[this.name];
        if (transformer) this.args = transformer(this.args);
        this.stringifyArguments();
      }
      this.resolve = this._convertValue(resolve);
      // Bound to a local before the property: allocated young (see above).
      const rejectCommand = (err: Error): void => {
        this._clearTimers();
        this.isSettled = true;
        if (this.errorStack) reject(optimizeErrorStack(err, this.errorStack.stack, ioredisDirname));
        else reject(err);
      };
      this.reject = rejectCommand;
    });
    this.promise = asCallback(promise, this.callback);
  };
  installed = true;
}
