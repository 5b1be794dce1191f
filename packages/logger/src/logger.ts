import winston from 'winston';
import { REDACTED_KEYS, redact } from './redact.js';

/** The logging surface the rest of the code depends on: winston's, narrowed. */
export interface Logger {
  error(message: string, meta?: Record<string, unknown>): void;
  warn(message: string, meta?: Record<string, unknown>): void;
  info(message: string, meta?: Record<string, unknown>): void;
  debug(message: string, meta?: Record<string, unknown>): void;
  /** A logger that adds these fields (request_id, conversation_id, delivery_id ...) to every line. */
  child(fields: Record<string, unknown>): Logger;
  /** Whether a line at this level would be written: a caller that builds a line per request asks first. */
  enabled(level: 'error' | 'warn' | 'info' | 'debug'): boolean;
}

/** Where winston's transports take the finished line from (triple-beam's MESSAGE, a registered symbol). */
const MESSAGE = Symbol.for('message');

/**
 * The line in one step: the time, the level, the message, then the other fields as given, secrets
 * redacted, as JSON. It holds what winston's timestamp, a redaction format and logform's json wrote
 * (tested field for field) at about half the CPU: logform's json configures a new stringifier for
 * every line and sorts the keys. `JSON.stringify` is safe here, and takes V8's fast path with no
 * replacer, because `redact` has copied every field into plain data of bounded depth (no cycle can
 * reach it) with BigInts as text.
 */
const lineFormat = winston.format((info) => {
  const line: Record<string, unknown> = { timestamp: new Date().toISOString(), level: info.level, message: info.message };
  for (const key of Object.keys(info)) {
    if (key === 'level' || key === 'message') continue;
    line[key] = REDACTED_KEYS.has(key.toLowerCase()) ? '[redacted]' : redact(info[key]);
  }
  info[MESSAGE] = JSON.stringify(line);
  return info;
});

export interface LoggerOptions {
  level: string;
  service: string;
  /** Defaults to stdout; tests pass a stream to read what was logged. */
  stream?: NodeJS.WritableStream;
  silent?: boolean;
}

/**
 * winston's `isLevelEnabled`, asked once per level until the logger's level changes: its answer
 * allocates on every call (its `transports` getter builds two arrays, twice), and the API asks for
 * each request. The transports are this file's and have no level of their own, so the logger's
 * level is all the answer depends on.
 */
class LevelGate {
  private level: string | undefined;
  private readonly answers = new Map<string, boolean>();

  constructor(private readonly root: winston.Logger) {}

  enabled(level: string): boolean {
    if (this.root.level !== this.level) {
      this.answers.clear();
      this.level = this.root.level;
    }
    let answer = this.answers.get(level);
    if (answer === undefined) {
      answer = this.root.isLevelEnabled(level);
      this.answers.set(level, answer);
    }
    return answer;
  }
}

/**
 * winston sends every call through its stream pipeline and drops lines below the level only at the
 * end; this wrapper asks first, so a disabled level costs one comparison on the request path. A
 * child is one small object pointing at its parent (its methods are the class's): the fields are
 * merged only when a line is written, so a request's child loggers cost next to nothing while
 * their level is off.
 */
class GuardedLogger implements Logger {
  constructor(
    private readonly root: winston.Logger,
    private readonly gate: LevelGate,
    private readonly fields: Readonly<Record<string, unknown>>,
    private readonly parent?: GuardedLogger,
  ) {}

  error(message: string, meta?: Record<string, unknown>): void {
    this.write('error', message, meta);
  }

  warn(message: string, meta?: Record<string, unknown>): void {
    this.write('warn', message, meta);
  }

  info(message: string, meta?: Record<string, unknown>): void {
    this.write('info', message, meta);
  }

  debug(message: string, meta?: Record<string, unknown>): void {
    this.write('debug', message, meta);
  }

  child(fields: Record<string, unknown>): Logger {
    return new GuardedLogger(this.root, this.gate, fields, this);
  }

  enabled(level: 'error' | 'warn' | 'info' | 'debug'): boolean {
    return this.gate.enabled(level);
  }

  private write(level: 'error' | 'warn' | 'info' | 'debug', message: string, meta: Record<string, unknown> | undefined): void {
    if (!this.gate.enabled(level)) return;
    // winston copies the fields into its own record: the root logger's caller's object is passed as it is.
    this.root.log(level, message, this.parent === undefined ? (meta ?? {}) : { ...this.merged(), ...meta });
  }

  /** The fields of this logger and its ancestors, a child's winning. */
  private merged(): Record<string, unknown> {
    return this.parent ? { ...this.parent.merged(), ...this.fields } : { ...this.fields };
  }
}

/** One JSON object per line: timestamp, level, message, service and the caller's fields, secrets redacted. */
export function createLogger(options: LoggerOptions): Logger {
  const transport = options.stream ? new winston.transports.Stream({ stream: options.stream }) : new winston.transports.Console();
  const root = winston.createLogger({
    level: options.level,
    silent: options.silent ?? false,
    defaultMeta: { service: options.service },
    format: lineFormat(),
    transports: [transport],
  });
  return new GuardedLogger(root, new LevelGate(root), {});
}
