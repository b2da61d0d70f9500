/**
 * A value as a PostgreSQL literal, for a statement sent as text where the protocol carries no parameters
 * (`execute name(...)` among several statements of one message). The literal is untyped: the prepared statement's
 * parameter type reads it, as it reads a parameter node-postgres sends. null and undefined are NULL; anything else is
 * a quoted string, written as node-postgres writes a parameter: arrays as array literals (`{1,"a\"b",NULL}`),
 * objects as JSON, dates as UTC ISO timestamps, numbers, bigints and booleans as their text.
 *
 * Throws a TypeError for what has no such text (functions, symbols, NaN or infinite numbers, buffers) and for a
 * string holding NUL, which PostgreSQL text cannot hold and which would end a statement's text.
 */
export function sqlLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  return quoted(withoutNul(asText(value)));
}

/**
 * A text as a string constant: quotes doubled, and with a backslash an escape string constant (E'...', backslashes
 * doubled) that reads the same whatever standard_conforming_strings says. As node-postgres's escapeLiteral, but with
 * the engine's replaceAll rather than its loop over characters: the write of a batch is tens of kilobytes of JSON,
 * where that loop took about 0.4 ms (docs/benchmarks.md).
 */
function quoted(text: string): string {
  const doubled = text.replaceAll("'", "''");
  return text.includes('\\') ? `E'${doubled.replaceAll('\\', '\\\\')}'` : `'${doubled}'`;
}

function withoutNul(text: string): string {
  if (text.includes('\u0000')) throw new TypeError('a value sent as a literal holds a NUL character');
  return text;
}

/** The text node-postgres would send for a parameter (its `prepareValue`), for a value that is not null. */
function asText(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`${value} has no literal`);
      return String(value);
    case 'bigint':
    case 'boolean':
      return String(value);
    case 'object':
      if (Array.isArray(value)) return arrayText(value);
      if (value instanceof Date) return value.toISOString();
      if (value instanceof Uint8Array) throw new TypeError('binary values are not sent as literals');
      return JSON.stringify(value);
    default:
      throw new TypeError(`a ${typeof value} has no literal`);
  }
}

/** An array literal: each element quoted (backslash and double quote escaped), null as NULL, nested arrays nested. */
function arrayText(values: readonly unknown[]): string {
  const elements = values.map((v) => {
    if (v === null || v === undefined) return 'NULL';
    if (Array.isArray(v)) return arrayText(v);
    return `"${asText(v).replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
  });
  return `{${elements.join(',')}}`;
}
