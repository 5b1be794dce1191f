import { ConfigError, readOptionalString, type Env } from './env-readers.js';

/** The OpenTelemetry resource of this process's traces, from the SDK's standard variables. */
export interface OtelResource {
  /**
   * OTEL_SERVICE_NAME, else the `service.name` of OTEL_RESOURCE_ATTRIBUTES; undefined: the process's
   * own name (dialog-relay-api, dialog-relay-worker).
   */
  readonly serviceName: string | undefined;
  /** OTEL_RESOURCE_ATTRIBUTES: `key=value,…`, values percent-decoded (W3C Baggage form, as the OpenTelemetry specification has it). */
  readonly attributes: Readonly<Record<string, string>>;
}

const VARIABLE = 'OTEL_RESOURCE_ATTRIBUTES';

function readResourceAttributes(env: Env): Record<string, string> {
  const raw = readOptionalString(env, VARIABLE);
  const attributes: Record<string, string> = {};
  if (raw === undefined) return attributes;
  for (const [index, entry] of raw.split(',').entries()) {
    const equals = entry.indexOf('=');
    const key = entry.slice(0, Math.max(equals, 0)).trim();
    if (equals < 0 || key === '') throw new ConfigError(VARIABLE, `entry ${index + 1} is not key=value; expected key1=value1,key2=value2`);
    try {
      attributes[key] = decodeURIComponent(entry.slice(equals + 1).trim());
    } catch {
      throw new ConfigError(
        VARIABLE,
        `the value of "${key}" is not percent-encoded correctly (a comma or a % in a value is written %2C, %25)`,
      );
    }
  }
  return attributes;
}

export function readOtelResource(env: Env): OtelResource {
  const attributes = readResourceAttributes(env);
  return Object.freeze({
    serviceName: readOptionalString(env, 'OTEL_SERVICE_NAME') ?? attributes['service.name'],
    attributes: Object.freeze(attributes),
  });
}
