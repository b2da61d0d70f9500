import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Db } from '../db/client.js';
import { principalOf, requireUser } from '../http/auth.js';
import { bearerAuth, IdParams, problems } from '../http/schemas.js';
import { DomainError } from '../shared/errors.js';
import { StoredAddress, StoredAddressInput, StoredAddressPatch } from './address.schema.js';
import {
  type AddressRow,
  type AddressValues,
  addressSnapshot,
  createAddress,
  deleteAddress,
  findOwnAddress,
  listAddresses,
  updateAddress,
} from './addresses.repository.js';
import { addressValues } from './addresses.values.js';

export function presentAddress(row: AddressRow) {
  return { id: row.id, ...addressSnapshot(row), is_default: row.isDefault };
}

export function addressRoutes(deps: { db: Db }): FastifyPluginAsyncTypebox {
  return async (app) => {
    const common = { tags: ['addresses'], security: bearerAuth };
    const base = '/user/storefront/api/addresses/';

    app.get(
      base,
      {
        onRequest: requireUser,
        schema: {
          ...common,
          summary: "The signed-in user's stored addresses",
          response: { 200: Type.Array(StoredAddress), ...problems(401) },
        },
      },
      async (request) => (await listAddresses(deps.db, principalOf(request).userId)).map(presentAddress),
    );

    app.post(
      base,
      {
        onRequest: requireUser,
        schema: {
          ...common,
          summary: 'Store an address',
          body: StoredAddressInput,
          response: { 201: StoredAddress, ...problems(401, 422) },
        },
      },
      async (request, reply) => {
        const values = addressValues(request.body) as AddressValues;
        const row = await createAddress(deps.db, principalOf(request).userId, values);
        return reply.code(201).send(presentAddress(row));
      },
    );

    app.get(
      `${base}:id/`,
      {
        onRequest: requireUser,
        schema: {
          ...common,
          summary: 'One stored address',
          params: IdParams,
          response: { 200: StoredAddress, ...problems(401, 404) },
        },
      },
      async (request) => {
        const row = await findOwnAddress(deps.db, principalOf(request).userId, request.params.id);
        if (!row) throw new DomainError('not_found', { detail: `address ${request.params.id} not found` });
        return presentAddress(row);
      },
    );

    app.patch(
      `${base}:id/`,
      {
        onRequest: requireUser,
        schema: {
          ...common,
          summary: 'Change a stored address',
          params: IdParams,
          body: StoredAddressPatch,
          response: { 200: StoredAddress, ...problems(401, 404, 422) },
        },
      },
      async (request) => {
        const row = await updateAddress(deps.db, {
          userId: principalOf(request).userId,
          id: request.params.id,
          values: addressValues(request.body),
        });
        return presentAddress(row);
      },
    );

    app.delete(
      `${base}:id/`,
      {
        onRequest: requireUser,
        schema: {
          ...common,
          summary: 'Delete a stored address',
          params: IdParams,
          response: { 204: Type.Null(), ...problems(401, 404) },
        },
      },
      async (request, reply) => {
        await deleteAddress(deps.db, principalOf(request).userId, request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
}
