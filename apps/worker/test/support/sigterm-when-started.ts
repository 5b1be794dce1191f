/**
 * Preloaded with `node --import` into a worker: the process sends itself SIGTERM in the same instant it
 * writes its "worker started" line, before its next statement runs. An orchestrator or a test that stops
 * the worker as soon as it reads that line hits this moment only sometimes; this makes it every time.
 */
const write = process.stdout.write.bind(process.stdout) as (chunk: unknown, ...rest: unknown[]) => boolean;
process.stdout.write = (chunk: unknown, ...rest: unknown[]): boolean => {
  const written = write(chunk, ...rest);
  if (String(chunk).includes('"message":"worker started"')) process.kill(process.pid, 'SIGTERM');
  return written;
};
