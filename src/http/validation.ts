import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped once more.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

// `discriminator`: a union tagged by a property (a promotion's action by `type`) is checked against the one branch its
// tag names, so a mistake is reported on that branch's fields instead of once per branch.
const common: Options = {
  allErrors: true,
  removeAdditional: false,
  useDefaults: true,
  strict: false,
  discriminator: true,
};

interface FormatDefinition {
  validate: (text: string) => boolean;
  compare: (a: string, b: string) => number;
}

const EARLIEST_TIMESTAMP = Date.parse('0001-01-01T00:00:00Z');
const LATEST_TIMESTAMP = Date.parse('9999-12-31T23:59:59.999Z');
/** PostgreSQL reads a UTC offset up to ±15:59; RFC 3339 allows up to ±23:59. */
const OFFSET = /([+-])(\d{2}):(\d{2})$/;
const storableOffset = (text: string) => Number(OFFSET.exec(text)?.[2] ?? 0) <= 15;

/**
 * RFC 3339 allows what neither JavaScript nor PostgreSQL can hold: a leap second (no Date for it), year 0000
 * (PostgreSQL has no year 0), a moment past 9999 in UTC (no four-digit year to write it with) and an offset beyond
 * ±15:59. `date-time` also requires a moment both can hold.
 */
function withStorableDates(ajv: Ajv): Ajv {
  const rfc3339 = ajv.formats['date-time'] as FormatDefinition;
  const storable = (text: string) => {
    const moment = Date.parse(text);
    return moment >= EARLIEST_TIMESTAMP && moment <= LATEST_TIMESTAMP && storableOffset(text);
  };
  return ajv.addFormat('date-time', {
    ...rfc3339,
    validate: (text: string) => rfc3339.validate(text) && storable(text),
  });
}

/**
 * JSON bodies are validated as sent: `"2"` and `true` are never taken as numbers, and unknown
 * fields fail (bodies declare `additionalProperties: false`).
 */
const bodyAjv = withStorableDates(addFormats(new Ajv({ ...common, coerceTypes: false })));

/** Path, query and header values are always strings on the wire, so these coerce to the schema. */
const urlAjv = withStorableDates(addFormats(new Ajv({ ...common, coerceTypes: true })));

// PostgreSQL stores no NUL in text or jsonb, and a lone UTF-16 surrogate has no UTF-8 form: either
// would fail in the database as a 500. In `u` mode a proper surrogate pair is one code point, not Cs.
const LONE_SURROGATE = /\p{Cs}/u;

function unstorable(text: string, instancePath: string): ErrorObject[] {
  const message = text.includes('\u0000')
    ? 'must not contain the NUL character (U+0000)'
    : LONE_SURROGATE.test(text)
      ? 'must be valid Unicode text (it holds an unpaired surrogate)'
      : undefined;
  return message ? [{ instancePath, schemaPath: '#/storableText', keyword: 'storableText', params: {}, message }] : [];
}

/** Text PostgreSQL can store: no NUL, no lone surrogate. */
const storableText = (text: string) => !text.includes('\u0000') && !LONE_SURROGATE.test(text);

const pointerToken = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** Errors of this kind reported at most per request part: enough to fix the request, bounded for a hostile one. */
const MAX_TEXT_ERRORS = 50;

/**
 * Every string in a request part the database could not store, names of fields included, as Ajv errors
 * so they read like any other validation failure. Walks the data, not the schema: free-form fields
 * reach the database too. The walk keeps its own stack, so no depth of nesting can overflow the call stack.
 */
function unstorableStrings(data: unknown): ErrorObject[] {
  const errors: ErrorObject[] = [];
  // Depth first, in the order the fields were sent: a stack whose children are pushed last to first. A node knows
  // its parent and its key; its path is spelled out only for an error.
  type Node = { value: unknown; parent?: Node; key?: string };
  const pathOf = (node: Node): string => {
    const tokens: string[] = [];
    for (let at: Node | undefined = node; at?.parent; at = at.parent) tokens.push(pointerToken(at.key ?? ''));
    return tokens
      .reverse()
      .map((token) => `/${token}`)
      .join('');
  };
  const pending: Node[] = [{ value: data }];
  for (let next = pending.pop(); next && errors.length < MAX_TEXT_ERRORS; next = pending.pop()) {
    const { value, key } = next;
    if (key !== undefined && !storableText(key)) errors.push(...unstorable(key, pathOf(next)));
    if (typeof value === 'string') {
      if (!storableText(value)) errors.push(...unstorable(value, pathOf(next)));
    } else if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [childKey, child] = entries[i] as [string, unknown];
        pending.push({ value: child, parent: next, key: childKey });
      }
    }
  }
  return errors.slice(0, MAX_TEXT_ERRORS);
}

/** The schema's verdict plus the storable-text rule, which every validated part of every request obeys. */
function withStorableText(validate: ValidateFunction): ValidateFunction {
  const checked = ((data: unknown, context?: Parameters<ValidateFunction>[1]) => {
    const valid = validate(data, context);
    const textErrors = unstorableStrings(data);
    checked.errors =
      valid && textErrors.length === 0 ? null : [...(valid ? [] : (validate.errors ?? [])), ...textErrors];
    return checked.errors === null;
  }) as ValidateFunction;
  // Fastify passes the parent (so Ajv can coerce a root value) only to functions carrying a schemaEnv.
  checked.schema = validate.schema;
  checked.schemaEnv = validate.schemaEnv;
  return checked;
}

/** How a number in a path or query is written: decimal digits (Ajv's coercion alone reads " 1", "0x10", "1e3" too). */
const WRITTEN = { integer: /^-?\d+$/, number: /^-?\d+(\.\d+)?$/ } as const;

/** The top-level fields of a URL part's schema that are numbers, with how each must be written. */
function numericFields(schema: object): [string, RegExp, string][] {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {};
  return Object.entries(properties).flatMap(([key, field]): [string, RegExp, string][] => {
    if (field.type === 'integer') return [[key, WRITTEN.integer, 'must be an integer written in decimal digits']];
    if (field.type === 'number') return [[key, WRITTEN.number, 'must be a number written in decimal digits']];
    return [];
  });
}

/** A URL part's validator that first refuses numbers written otherwise than in decimal digits, then coerces. */
function withDecimalNumbers(validate: ValidateFunction, fields: [string, RegExp, string][]): ValidateFunction {
  if (fields.length === 0) return validate;
  const checked = ((data: unknown, context?: Parameters<ValidateFunction>[1]) => {
    const values = (data ?? {}) as Record<string, unknown>;
    const written: ErrorObject[] = fields.flatMap(([key, pattern, message]) => {
      const value = values[key];
      if (typeof value !== 'string' || pattern.test(value)) return [];
      return [
        { instancePath: `/${pointerToken(key)}`, schemaPath: '#/decimal', keyword: 'decimal', params: {}, message },
      ];
    });
    const valid = validate(data, context);
    checked.errors = valid && written.length === 0 ? null : [...written, ...(valid ? [] : (validate.errors ?? []))];
    return checked.errors === null;
  }) as ValidateFunction;
  checked.schema = validate.schema;
  checked.schemaEnv = validate.schemaEnv;
  return checked;
}

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) =>
  httpPart === 'body'
    ? withStorableText(bodyAjv.compile(schema))
    : withStorableText(withDecimalNumbers(urlAjv.compile(schema), numericFields(schema)));

/** A validator for a JSON document validated like a request body, for payloads that arrive elsewhere. */
export function compileBodyValidator(schema: object) {
  return withStorableText(bodyAjv.compile(schema));
}
