import type { FieldError } from './app-error.js';

/** How large and deep a request body may be before anything else looks at it (docs/service-rules.md §16). */
export interface BodyShapeLimits {
  /** Nesting levels; the body object itself is level 1. */
  maxDepth: number;
  /** JSON values of every kind (objects, arrays, members, items) in the whole body. */
  maxValues: number;
}

export const DEFAULT_BODY_SHAPE: BodyShapeLimits = Object.freeze({ maxDepth: 32, maxValues: 10_000 });

/**
 * Walks the parsed body without recursion and stops at the first limit it meets, so a hostile
 * body costs at most maxValues steps. Every later step (schema, canonical form for the signature,
 * replay digest) may then recurse safely and in bounded time.
 */
export function checkBodyShape(body: unknown, limits: BodyShapeLimits = DEFAULT_BODY_SHAPE): FieldError | undefined {
  const stack: { value: unknown; depth: number }[] = [{ value: body, depth: 1 }];
  let values = 0;
  while (stack.length > 0) {
    const { value, depth } = stack.pop() as { value: unknown; depth: number };
    values += 1;
    if (values > limits.maxValues) {
      return { path: '', code: 'maxValues', message: `The request body holds more than ${limits.maxValues} JSON values.` };
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth > limits.maxDepth) {
      return { path: '', code: 'maxDepth', message: `The request body is nested deeper than ${limits.maxDepth} levels.` };
    }
    const children = Array.isArray(value) ? (value as unknown[]) : Object.values(value);
    // Counting before pushing keeps the stack itself within maxValues.
    if (values + stack.length + children.length > limits.maxValues) {
      return { path: '', code: 'maxValues', message: `The request body holds more than ${limits.maxValues} JSON values.` };
    }
    for (const child of children) stack.push({ value: child, depth: depth + 1 });
  }
  return undefined;
}
