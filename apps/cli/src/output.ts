/** What a command produced: text for people, JSON for scripts (--json), and whether it succeeded (exit code 0). */
export interface Output {
  text: string;
  json: unknown;
  ok: boolean;
  /** A sentence for stderr beside the result (with --json it is in the JSON instead). */
  warning?: string;
}

export const output = (text: string, json: unknown, ok = true): Output => ({ text, json, ok });

/** A command line that cannot be run as given: exit code 2 and the usage. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  /** The whole usage is printed too (an option the command does not know, or one without its value). */
  readonly showUsage: boolean;
  constructor(message: string, options: { showUsage?: boolean } = {}) {
    super(message);
    this.showUsage = options.showUsage ?? false;
  }
}

/** Writes a line to stdout: as-is, or one JSON value per line. */
export type Printer = (text: string, json: unknown) => void;
