import Module, { register } from 'node:module';
import { appendFileSync } from 'node:fs';

/**
 * A preload for tests (`node --import …/module-recorder.js`): appends every module the process
 * loads to the file MODULE_LOG names, one line each, `import|require <module> from <importer>` —
 * ES modules through a loader hook (module-recorder-hooks.js, which sees every import, builtins
 * included) and CommonJS through Module._load (require() calls, which Node 20's hooks do not see).
 */
const logFile = process.env['MODULE_LOG'];
if (logFile !== undefined && logFile !== '') {
  register(new URL('./module-recorder-hooks.js', import.meta.url), { data: { logFile } });
  type Load = (request: string, parent: unknown, isMain: boolean) => unknown;
  const internals = Module as unknown as { _load: Load; _resolveFilename: (request: string, parent: unknown) => string };
  const load = internals._load;
  internals._load = function (this: unknown, request: string, parent: unknown, isMain: boolean): unknown {
    let resolved = request;
    try {
      resolved = internals._resolveFilename(request, parent);
    } catch {
      // The load itself reports a module it cannot find.
    }
    appendFileSync(logFile, `require ${resolved} from ${(parent as { filename?: string } | null)?.filename ?? '(main)'}\n`);
    return load.call(this, request, parent, isMain);
  };
}
