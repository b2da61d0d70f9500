import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { normaliseCountry } from '../addresses/address.schema.js';
import type { Db } from '../db/client.js';
import { adminReferenceScope, type ReferenceWriter } from '../http/auth.js';
import { bearerAuth, IdParams, problems } from '../http/schemas.js';
import type { CurrencyFormat } from '../shared/money.js';
import { presentTaxClass, presentTaxRate } from './tax.presenter.js';
import {
  createTaxClass,
  createTaxRate,
  deleteTaxClass,
  deleteTaxRate,
  findTaxClass,
  findTaxRate,
  listTaxClasses,
  listTaxRates,
  renameTaxClass,
  updateTaxRate,
} from './tax.repository.js';
import {
  TaxClass,
  TaxClassInput,
  TaxClassPatch,
  TaxRate,
  TaxRateInput,
  TaxRatePatch,
  TaxRateQuery,
} from './tax.schema.js';
import { newTaxRateValues, taxClassName, taxRateValues } from './tax.values.js';

/** Tax classes and tax rates: /tax/dashboard/api/ (admins only) */
export function taxAdminRoutes(deps: { db: Db; money: CurrencyFormat } & ReferenceWriter): FastifyPluginAsyncTypebox {
  return async (app) => {
    const common = { tags: ['tax (admin)'], security: bearerAuth };
    const base = '/tax/dashboard/api';
    adminReferenceScope(app, deps.referenceChanged);

    app.get(
      `${base}/tax-classes/`,
      {
        schema: {
          ...common,
          summary: 'Every tax class',
          response: { 200: Type.Array(TaxClass), ...problems(401, 403) },
        },
      },
      async () => (await listTaxClasses(deps.db)).map(presentTaxClass),
    );

    app.post(
      `${base}/tax-classes/`,
      {
        schema: {
          ...common,
          summary: 'Create a tax class',
          body: TaxClassInput,
          response: { 201: TaxClass, ...problems(401, 403, 409, 422) },
        },
      },
      async (request, reply) => {
        const row = await createTaxClass(deps.db, taxClassName(request.body.name));
        return reply.code(201).send(presentTaxClass(row));
      },
    );

    app.get(
      `${base}/tax-classes/:id/`,
      {
        schema: {
          ...common,
          summary: 'One tax class',
          params: IdParams,
          response: { 200: TaxClass, ...problems(401, 403, 404) },
        },
      },
      async (request) => presentTaxClass(await findTaxClass(deps.db, request.params.id)),
    );

    app.patch(
      `${base}/tax-classes/:id/`,
      {
        schema: {
          ...common,
          summary: 'Rename a tax class',
          params: IdParams,
          body: TaxClassPatch,
          response: { 200: TaxClass, ...problems(401, 403, 404, 409, 422) },
        },
      },
      async (request) =>
        presentTaxClass(
          await renameTaxClass(
            deps.db,
            request.params.id,
            request.body.name === undefined ? undefined : taxClassName(request.body.name),
          ),
        ),
    );

    app.delete(
      `${base}/tax-classes/:id/`,
      {
        schema: {
          ...common,
          summary: 'Delete a tax class and its rates; its products and shipping methods lose it (tax_class_id null)',
          params: IdParams,
          response: { 204: Type.Null(), ...problems(401, 403, 404) },
        },
      },
      async (request, reply) => {
        await deleteTaxClass(deps.db, request.params.id);
        return reply.code(204).send(null);
      },
    );

    app.get(
      `${base}/tax-rates/`,
      {
        schema: {
          ...common,
          summary: 'Tax rates, optionally of one class (or the defaults) and/or country',
          querystring: TaxRateQuery,
          response: { 200: Type.Array(TaxRate), ...problems(401, 403, 422) },
        },
      },
      async (request) => {
        const { tax_class_id, country } = request.query;
        const filter = {
          taxClassId: tax_class_id === 'null' ? null : tax_class_id,
          country: country === undefined ? undefined : normaliseCountry(country, 'querystring.country'),
        };
        return (await listTaxRates(deps.db, filter)).map(presentTaxRate);
      },
    );

    app.post(
      `${base}/tax-rates/`,
      {
        schema: {
          ...common,
          summary: 'Create a tax rate for a class, or a default rate, in a country or state',
          body: TaxRateInput,
          response: { 201: TaxRate, ...problems(401, 403, 409, 422) },
        },
      },
      async (request, reply) => {
        const row = await createTaxRate(deps.db, newTaxRateValues(request.body));
        return reply.code(201).send(presentTaxRate(row));
      },
    );

    app.get(
      `${base}/tax-rates/:id/`,
      {
        schema: {
          ...common,
          summary: 'One tax rate',
          params: IdParams,
          response: { 200: TaxRate, ...problems(401, 403, 404) },
        },
      },
      async (request) => presentTaxRate(await findTaxRate(deps.db, request.params.id)),
    );

    app.patch(
      `${base}/tax-rates/:id/`,
      {
        schema: {
          ...common,
          summary: 'Change a tax rate',
          params: IdParams,
          body: TaxRatePatch,
          response: { 200: TaxRate, ...problems(401, 403, 404, 409, 422) },
        },
      },
      async (request) => presentTaxRate(await updateTaxRate(deps.db, request.params.id, taxRateValues(request.body))),
    );

    app.delete(
      `${base}/tax-rates/:id/`,
      {
        schema: {
          ...common,
          summary: 'Delete a tax rate',
          params: IdParams,
          response: { 204: Type.Null(), ...problems(401, 403, 404) },
        },
      },
      async (request, reply) => {
        await deleteTaxRate(deps.db, request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
}
