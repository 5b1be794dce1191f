// The benchmark's table and bench/results/latest.json (a shape other tools read: keep it).
import { cpus, platform, release, totalmem } from 'node:os';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const machine = () =>
  `${cpus()[0]?.model ?? 'unknown CPU'} × ${cpus().length}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, ${platform()} ${release()}`;

/** A row meets its target when its ratio is at least (min) or at most (max) the target (RSS rows: and under 250 MiB). */
export const met = (row) =>
  row.target === null
    ? null
    : row.under_250 === false
      ? false
      : row.direction === 'max'
        ? row.ratio <= row.target
        : row.ratio >= row.target;

const fmt = (value) => (value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2));

export function printTable(rows, log) {
  const lines = [['figure', 'dialog-relay', 'baseline (same run)', 'ratio', 'target', '']];
  for (const row of rows) {
    const target = row.target === null ? '' : `${row.direction === 'max' ? '≤' : '≥'} ${row.target}`;
    const verdict = met(row) === null ? '' : met(row) ? 'met' : 'MISSED';
    lines.push([
      row.figure,
      `${fmt(row.value)} ${row.unit}`,
      `${fmt(row.baseline_value)} ${row.unit} ${row.baseline}`,
      row.ratio.toFixed(2),
      target,
      verdict,
    ]);
  }
  const widths = lines[0].map((_, c) => Math.max(...lines.map((l) => l[c].length)));
  for (const [i, line] of lines.entries()) {
    log(`  ${line.map((cell, c) => (c === 1 || c === 3 ? cell.padStart(widths[c]) : cell.padEnd(widths[c]))).join('  ')}`);
    if (i === 0) log(`  ${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  }
}

/** Redis commands per request and per reply (MONITOR), CPU per request and per reply (µs), KiB allocated per request. */
export function printFigures(
  { redis_commands: commands, cpu_us: cpu, alloc_kib: alloc, redis_cpu_us: redisCpu, redis_instructions: instr },
  log,
) {
  const show = (value, digits = 1) => (value === null || value === undefined ? '-' : value.toFixed(digits));
  if (commands)
    log(
      `\n  Redis commands (top-level, MONITOR): assist ${show(commands.assist)}, website ${show(commands.website)}, cmd ${show(commands.cmd)}, auto_dialog accept ${show(commands.auto)}, per delivered reply ${show(commands.reply)}`,
    );
  if (cpu.request !== null || cpu.reply !== null)
    log(`  CPU: API ${show(cpu.request, 0)} µs per request, worker ${show(cpu.reply, 0)} µs per delivered reply`);
  if (alloc)
    log(
      `  allocated per request (--trace-gc): bare Express ${show(alloc.bare)} KiB; ${Object.entries(alloc)
        .filter(([id]) => id !== 'bare')
        .map(([id, kib]) => `${id} ${show(kib)}`)
        .join(', ')} KiB`,
    );
  if (redisCpu)
    log(
      `  Redis CPU: ${show(redisCpu.auto, 0)} µs per auto_dialog message accepted and delivered, ${show(redisCpu.raw, 0)} µs per raw BullMQ job`,
    );
  if (instr)
    log(
      `  Redis instructions (callgrind): ${show(instr.ours.total / 1000)}k per auto_dialog message (accept ${show(instr.ours.accept / 1000)}k, delivery ${show(instr.ours.delivery / 1000)}k), ${show(instr.raw.total / 1000)}k per raw BullMQ job`,
    );
}

export function writeResults(root, { rows, stopAttemptsAfter, errors, figures }) {
  const round = (value) => (typeof value === 'number' ? Math.round(value * 1000) / 1000 : value);
  const ratio = (id) => round(rows.find((row) => row.id === id)?.ratio ?? null);
  const result = {
    machine: machine(),
    node: process.version,
    at: new Date().toISOString(),
    ratios: {
      assist: ratio('assist'),
      website: ratio('website'),
      cmd: ratio('cmd'),
      auto_accept: ratio('auto_accept'),
      delivery: ratio('delivery'),
      e2e_p50: ratio('e2e_p50'),
      e2e_p99: ratio('e2e_p99'),
      rss_api: ratio('rss_api'),
      rss_worker: ratio('rss_worker'),
      redis_cpu: ratio('redis_cpu'),
    },
    redis_commands: figures.redis_commands && Object.fromEntries(Object.entries(figures.redis_commands).map(([id, n]) => [id, round(n)])),
    cpu_us: {
      request: round(figures.cpu_us.request),
      reply: round(figures.cpu_us.reply),
      by_scenario:
        figures.cpu_us.by_scenario && Object.fromEntries(Object.entries(figures.cpu_us.by_scenario).map(([id, us]) => [id, round(us)])),
      redis_by_scenario:
        figures.cpu_us.redis_by_scenario &&
        Object.fromEntries(Object.entries(figures.cpu_us.redis_by_scenario).map(([id, us]) => [id, round(us)])),
      main_thread:
        figures.cpu_us.main_thread &&
        Object.fromEntries(
          Object.entries(figures.cpu_us.main_thread).map(([id, thread]) => [
            id,
            thread && Object.fromEntries(Object.entries(thread).map(([name, value]) => [name, round(value)])),
          ]),
        ),
    },
    alloc_kib: figures.alloc_kib && Object.fromEntries(Object.entries(figures.alloc_kib).map(([id, kib]) => [id, round(kib)])),
    redis_cpu_us: figures.redis_cpu_us && { auto: round(figures.redis_cpu_us.auto), raw: round(figures.redis_cpu_us.raw) },
    redis_instructions: figures.redis_instructions && {
      auto: Math.round(figures.redis_instructions.ours.total),
      accept: Math.round(figures.redis_instructions.ours.accept),
      delivery: Math.round(figures.redis_instructions.ours.delivery),
      raw: Math.round(figures.redis_instructions.raw.total),
      raw_add: Math.round(figures.redis_instructions.raw.add),
      raw_process: Math.round(figures.redis_instructions.raw.process),
      by_scenario: Object.fromEntries(Object.entries(figures.redis_instructions.sync).map(([figure, n]) => [figure, Math.round(n)])),
    },
    e2e_by_second: figures.e2e_by_second,
    cpu_us_paced:
      figures.cpu_us_paced &&
      Object.fromEntries(
        Object.entries(figures.cpu_us_paced).map(([side, cpu]) => [
          side,
          Object.fromEntries(Object.entries(cpu).map(([name, us]) => [name, round(us)])),
        ]),
      ),
    stop_attempts_after: stopAttemptsAfter,
    errors,
    rows: rows.map((row) => ({ ...row, met: met(row) })),
  };
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  const file = join(root, 'bench/results/latest.json');
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  return file;
}
