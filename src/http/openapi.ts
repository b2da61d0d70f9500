import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema } from 'fastify';

/**
 * Marks an integer query parameter that is a page cursor (http/schemas.ts `Cursor`): the validator reads it as the
 * integer it is; the OpenAPI document shows it as the text every list answers in `next_cursor`.
 */
export const PAGE_CURSOR = 'x-page-cursor';

/** The parts of a route's schema a client sends. Answers are documented as they are. */
const REQUEST_PARTS = ['body', 'querystring', 'params', 'headers'] as const;

type JsonSchema = Record<string, unknown>;

/** Keywords whose value is data, not a schema. */
const VALUES = new Set(['default', 'examples', 'example', 'const', 'enum']);

const isSchema = (value: unknown): value is JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A property with a `default` is one the client may leave out: the validator fills it in (`useDefaults`) before it
 * checks `required`. TypeBox lists it as required (the handler always sees it), so the document would oblige every
 * client to send `quantity` or `limit`; here it is taken out of `required`, at every depth.
 */
function defaultsAreOptional(schema: JsonSchema): void {
  const properties = schema.properties;
  if (isSchema(properties) && Array.isArray(schema.required)) {
    const withDefault = (name: unknown) => {
      const property = properties[String(name)];
      return isSchema(property) && 'default' in property;
    };
    const required = schema.required.filter((name) => !withDefault(name));
    if (required.length > 0) schema.required = required;
    else delete schema.required;
  }
  for (const [keyword, value] of Object.entries(schema)) {
    if (VALUES.has(keyword)) continue;
    if (Array.isArray(value)) for (const item of value) if (isSchema(item)) defaultsAreOptional(item);
    if (isSchema(value)) defaultsAreOptional(value);
  }
}

/** A page cursor as the document shows it: the decimal text of `next_cursor` (what any query parameter is). */
function cursorAsText(schema: JsonSchema): JsonSchema {
  const { [PAGE_CURSOR]: _mark, type: _type, minimum: _minimum, maximum, ...rest } = schema;
  return {
    ...rest,
    type: 'string',
    pattern: '^[0-9]{1,10}$',
    description: `${String(rest.description ?? 'next_cursor of the previous page')} (a row id, 0 to ${maximum})`,
  };
}

function cursorsAsText(querystring: JsonSchema): void {
  const properties = querystring.properties;
  if (!isSchema(properties)) return;
  for (const [name, property] of Object.entries(properties)) {
    if (isSchema(property) && property[PAGE_CURSOR] === true) properties[name] = cursorAsText(property);
  }
}

/**
 * The route schema as /openapi.json shows it (@fastify/swagger's `transform`), where the validator's schema would
 * describe the API wrongly to a generated client (web/api/schema.d.ts): defaults make a field optional, and page
 * cursors are text. The validator keeps the route's own schema; this works on a copy.
 */
export function documentedRouteSchema<S extends FastifySchema | undefined>(schema: S): S {
  // Routes without a schema: @fastify/swagger's type says there is always one; there isn't.
  if (schema === undefined) return schema;
  const copy: Record<string, unknown> = { ...schema };
  for (const part of REQUEST_PARTS) {
    const original = copy[part];
    if (!isSchema(original)) continue;
    const documented = structuredClone(original);
    defaultsAreOptional(documented);
    if (part === 'querystring') cursorsAsText(documented);
    copy[part] = documented;
  }
  return copy as S;
}

/**
 * The OpenAPI document of every route registered after this (at /openapi.json; the web apps' client is generated
 * from it) and its reader at /docs.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    transform: ({ schema, url }) => ({ schema: documentedRouteSchema(schema), url }),
    refResolver: {
      // biome-ignore lint/complexity/useMaxParams: @fastify/swagger calls this with (json, baseUri, fragment, i).
      buildLocalReference: (json, _base, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Storefront commerce API',
        version: '0.1.0',
        description: 'Cart, order estimate and placement, and payments. Errors are RFC 9457 problem+json.',
      },
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
