import { MODULE_RECORDER } from '@dialog-relay/testkit';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApiProcess, type ApiProcess } from './api-process.js';

/** An API process started with the test kit's module recorder: what it has loaded so far, and one stop for both. */
export interface RecordedApi {
  api: ApiProcess;
  /** The module URLs loaded so far (the recorder's log). */
  loaded(): string[];
  stop(): Promise<void>;
}

export async function startRecordedApi(env: Record<string, string>): Promise<RecordedApi> {
  const folder = mkdtempSync(join(tmpdir(), 'dialog-relay-modules-'));
  const log = join(folder, 'api.modules');
  const api = await startApiProcess({ ...env, MODULE_LOG: log }, ['--import', MODULE_RECORDER]);
  return {
    api,
    loaded: () =>
      readFileSync(log, 'utf8')
        .split('\n')
        .map((line) => line.split(' ')[1] ?? ''),
    stop: async () => {
      await api.stop();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
