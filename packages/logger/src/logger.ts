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
}

const redactFormat = winston.format((info) => {
  for (const key of Object.keys(info)) {
    if (REDACTED_KEYS.has(key.toLowerCase())) info[key] = '[redacted]';
    else if (key !== 'level' && key !== 'message') info[key] = redact(info[key]);
  }
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
 * winston sends every call through its stream pipeline and drops lines below the level only at the
 * end; this wrapper asks first, so a disabled level costs one comparison on the request path.
 */
function guarded(root: winston.Logger, fields: Record<string, unknown> = {}): Logger {
  const at = (level: 'error' | 'warn' | 'info' | 'debug') => (message: string, meta?: Record<string, unknown>): void => {
    if (root.isLevelEnabled(level)) root.log(level, message, { ...fields, ...meta });
  };
  return {
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
    // Children only merge fields: nothing is allocated in winston until a line is actually written.
    child: (more) => guarded(root, { ...fields, ...more }),
  };
}

/** One JSON object per line: timestamp, level, message, service and the caller's fields, secrets redacted. */
export function createLogger(options: LoggerOptions): Logger {
  const transport = options.stream
    ? new winston.transports.Stream({ stream: options.stream })
    : new winston.transports.Console();
  return guarded(winston.createLogger({
    level: options.level,
    silent: options.silent ?? false,
    defaultMeta: { service: options.service },
    format: winston.format.combine(winston.format.timestamp(), redactFormat(), winston.format.json()),
    transports: [transport],
  }));
}
