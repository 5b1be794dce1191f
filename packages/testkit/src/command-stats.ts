/**
 * Calls per command from `INFO commandstats` (`cmdstat_get:calls=12,…`): Redis counts every command,
 * those a script runs included, so a test reads what a path makes Redis run on a server of its own.
 * Subcommands keep Redis's names (`config|resetstat`).
 */
export function commandCalls(commandstats: string): Map<string, number> {
  const calls = new Map<string, number>();
  for (const line of commandstats.split('\n')) {
    const found = /^cmdstat_([^:]+):calls=(\d+)/.exec(line.trim());
    if (found) calls.set(found[1]!, Number(found[2]));
  }
  return calls;
}
