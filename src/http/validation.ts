import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped once more.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

const common: Options = { allErrors: true, removeAdditional: false, useDefaults: true, strict: false };

/**
 * JSON bodies are validated as sent: `"2"` and `true` are never taken as numbers, and unknown
 * fields fail (bodies declare `additionalProperties: false`).
 */
const bodyAjv = addFormats(new Ajv({ ...common, coerceTypes: false }));

/** Path, query and header values are always strings on the wire, so these coerce to the schema. */
const urlAjv = addFormats(new Ajv({ ...common, coerceTypes: true }));

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? bodyAjv : urlAjv).compile(schema);

/** A validator for a JSON document validated like a request body, for payloads that arrive elsewhere. */
export function compileBodyValidator(schema: object) {
  return bodyAjv.compile(schema);
}
