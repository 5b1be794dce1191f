import { appendFileSync } from 'node:fs';
import type { InitializeHook, ResolveHook } from 'node:module';

/** Loader hooks of module-recorder.ts (they run on the loader's own thread): each import, one line. */
let logFile = '';

export const initialize: InitializeHook<{ logFile: string }> = (data) => {
  logFile = data.logFile;
};

export const resolve: ResolveHook = async (specifier, context, nextResolve) => {
  const resolved = await nextResolve(specifier, context);
  appendFileSync(logFile, `import ${resolved.url} from ${context.parentURL ?? '(main)'}\n`);
  return resolved;
};
