import { type Static, type TLiteral, type TObject, type TProperties, type TUnion, Type } from 'typebox';
import { errorCodes } from '../shared/errors.js';
import { PAGE_CURSOR } from './openapi.js';

/** A request body object: unknown fields are a 422, never silently dropped. */
export function StrictObject<T extends TProperties>(
  properties: T,
  options: { description?: string; examples?: unknown[] } = {},
) {
  return Type.Object(properties, { ...options, additionalProperties: false });
}

export const Problem = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.Optional(Type.String()),
    code: Type.String({ description: 'Stable machine code (see docs/api.md)' }),
    errors: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))),
    request_id: Type.Optional(Type.String()),
    refundable: Type.Optional(Type.String({ description: 'refund_exceeds_refundable: what can be refunded now' })),
    capturable: Type.Optional(Type.String({ description: 'capture_exceeds_capturable: what can be captured now' })),
    retryable: Type.Optional(
      Type.Boolean({
        description: 'payment_gateway_error: true when the outcome is unknown; send the same request, same key',
      }),
    ),
    operation_id: Type.Optional(
      Type.Integer({ description: 'the payment operation (capture, void, refund) concerned' }),
    ),
  },
  { $id: 'Problem', description: 'RFC 9457 problem details' },
);

const ProblemRef = Type.Ref('Problem');

/** Response schema entries for the given error statuses (documentation; bodies are pre-serialised). */
export function problems(...statuses: number[]) {
  const out: Record<number, typeof ProblemRef> = {};
  for (const status of statuses) out[status] = { ...ProblemRef, description: describe(status) } as typeof ProblemRef;
  return out;
}

function describe(status: number): string {
  const codes = Object.entries(errorCodes)
    .filter(([, v]) => v.status === status)
    .map(([k]) => k);
  return `Problem (${codes.join(', ')})`;
}

/**
 * Every id, count and quantity a client sends lands in a PostgreSQL `integer` column (src/db/schema.ts);
 * the schemas bound them here so a larger value is a 422 naming the field, not a database error.
 */
export const INT4_MAX = 2_147_483_647;

/** A row id: ids are `integer` identity columns. */
export const Id = Type.Integer({ minimum: 1, maximum: INT4_MAX });

/** A count the client sets (a limit, a number of uses): `integer` columns. */
export const Count = (options: { minimum?: number; maximum?: number; default?: number } = {}) =>
  Type.Integer({ minimum: 0, ...options, maximum: Math.min(options.maximum ?? INT4_MAX, INT4_MAX) });

/**
 * A page cursor: the `next_cursor` of the previous page, which is a row id. Lists answer it as text, and the OpenAPI
 * document shows this parameter as that text (http/openapi.ts), so a generated client passes `next_cursor` unchanged.
 */
export const Cursor = Type.Integer({
  minimum: 0,
  maximum: INT4_MAX,
  description: 'next_cursor of the previous page',
  [PAGE_CURSOR]: true,
});

export const IdParams = Type.Object({ id: Id });

/**
 * An answer's field that holds one of `values` (an order's status): a plain string to the serializer, a union of the
 * values in the generated client, so an app can tell them apart without casting.
 */
export const StringEnum = <T extends string>(values: readonly T[], options: { description?: string } = {}) =>
  Type.Unsafe<T>({ ...options, type: 'string', enum: [...values] });

export const bearerAuth = [{ bearerAuth: [] }];

/** Open to guests; a Bearer token, when sent, identifies the caller. */
export const optionalBearerAuth: Record<string, string[]>[] = [{}, { bearerAuth: [] }];

/** An object schema whose `type` property is a literal: one branch of a TaggedUnion. */
type Tagged = TObject<{ type: TLiteral<string> } & TProperties>;

/**
 * Objects told apart by their `type` (a promotion's action: `{type: "order_fixed", amount}`): `oneOf` with an OpenAPI
 * `discriminator`, so the validator checks the one branch the tag names and reports that branch's fields, and a
 * missing or unknown tag is a 422 on `type` listing the kinds.
 */
export function TaggedUnion<T extends Tagged[]>(branches: [...T], options: { description?: string } = {}) {
  const tags = branches.map((branch) => branch.properties.type.const);
  return Type.Unsafe<Static<TUnion<T>>>({
    ...options,
    type: 'object',
    required: ['type'],
    properties: { type: { type: 'string', enum: tags } },
    discriminator: { propertyName: 'type' },
    oneOf: branches,
  });
}
