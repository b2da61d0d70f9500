import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Db } from '../db/client.js';
import { adminReferenceScope, type ReferenceWriter } from '../http/auth.js';
import { bearerAuth, Count, IdParams, problems, StrictObject } from '../http/schemas.js';
import { DomainError } from '../shared/errors.js';
import type { CurrencyFormat } from '../shared/money.js';
import { presentAdminProduct } from './catalog.presenter.js';
import { findProduct } from './catalog.repository.js';
import { AdminProduct, variantInputFields } from './catalog.schema.js';
import { variantValues } from './catalog.values.js';
import { generateVariants, setProductOptions } from './options.repository.js';
import { checkOptions, OPTION_LIMITS } from './options.rules.js';

const OptionInput = StrictObject({
  name: Type.String({ maxLength: 200, description: 'Unique among the product’s options (in any case)' }),
  values: Type.Array(Type.String({ maxLength: 1000 }), {
    maxItems: 1000,
    description: `Its values in order, unique (in any case), at most ${OPTION_LIMITS.valuesPerOption}`,
  }),
  renamed_from: Type.Optional(
    Type.String({
      maxLength: 200,
      description: 'The name the option has now, when this renames it: its values and variants stay',
    }),
  ),
  values_renamed_from: Type.Optional(
    Type.Record(Type.String({ maxLength: 1000 }), Type.String({ maxLength: 1000 }), {
      description:
        'Values this renames, each new value (one of `values`) with the value it has now: {"Medium": "M"}. The '
        + 'variants that have it keep it, renamed after their new combination',
    }),
  ),
});

export const OptionsInput = StrictObject(
  {
    options: Type.Array(OptionInput, {
      maxItems: 20,
      description:
        `The whole list, in order: at most ${OPTION_LIMITS.options} options`
        + ` and ${OPTION_LIMITS.combinations} combinations`,
    }),
  },
  {
    examples: [
      {
        options: [
          { name: 'Size', values: ['S', 'M', 'L'] },
          { name: 'Colour', values: ['Black', 'Grey'] },
        ],
      },
    ],
  },
);

export const GenerateInput = StrictObject(
  {
    price: variantInputFields.price,
    compare_at_price: Type.Optional(variantInputFields.compare_at_price),
    stock: Type.Optional(Count({ maximum: 1_000_000_000 })),
    sku_pattern: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Option names in braces are replaced by the value, upper-cased: "HOODIE-{Size}-{Colour}"',
      }),
    ),
  },
  // Without a SKU pattern: the example runs on any product (a pattern names the product's own options).
  { examples: [{ price: '49.00', stock: 10 }] },
);

/** A product's options and the variants generated from them: /product/dashboard/api/products/{id}/… (admins). */
export function optionAdminRoutes(
  deps: { db: Db; money: CurrencyFormat } & ReferenceWriter,
): FastifyPluginAsyncTypebox {
  return async (app) => {
    const common = { tags: ['catalog (admin)'], security: bearerAuth };
    const base = '/product/dashboard/api/products/:id';
    adminReferenceScope(app, deps.referenceChanged);

    const answer = async (id: number) => {
      const product = await findProduct(deps.db, id);
      if (!product) throw new DomainError('product_not_found', { detail: `product ${id} not found` });
      return presentAdminProduct(product, deps.money);
    };

    app.put(
      `${base}/options/`,
      {
        schema: {
          ...common,
          summary: "Set a product's options and their values (the whole list); its variants follow",
          description:
            'Options and values are matched by name, or by the name they are renamed from (`renamed_from`, '
            + '`values_renamed_from`): a rename keeps the option or value and its variants. A variant keeps the '
            + 'values that remain and takes the first value of a new option; one whose value is removed is archived '
            + '(never deleted: orders keep it); one whose combination changed is named after it ("S / Black"). Two '
            + 'active variants left with one combination refuse the change (409 variant_combination_taken). Then '
            + 'generate the missing variants.',
          params: IdParams,
          body: OptionsInput,
          response: { 200: AdminProduct, ...problems(401, 403, 404, 409, 422) },
        },
      },
      async (request) => {
        const options = checkOptions(
          request.body.options.map((o) => ({
            name: o.name,
            values: o.values,
            renamedFrom: o.renamed_from,
            valuesRenamedFrom: o.values_renamed_from,
          })),
        );
        await setProductOptions(deps.db, request.params.id, options);
        return answer(request.params.id);
      },
    );

    app.post(
      `${base}/variants/generate/`,
      {
        schema: {
          ...common,
          summary: 'Create a variant for every combination of the options that no variant has',
          description:
            'Each is named after its combination ("S / Black") with the price, stock and SKU pattern given. A '
            + 'combination an archived variant has is not made again: restore that variant. Answers the product.',
          params: IdParams,
          body: GenerateInput,
          response: { 200: AdminProduct, ...problems(401, 403, 404, 409, 422) },
        },
      },
      async (request) => {
        const { price, compare_at_price, stock, sku_pattern } = request.body;
        const values = variantValues({ price, compare_at_price }, deps.money);
        await generateVariants(deps.db, request.params.id, {
          price: values.price ?? 0,
          compareAtPrice: values.compareAtPrice ?? null,
          stock,
          skuPattern: sku_pattern,
        });
        return answer(request.params.id);
      },
    );
  };
}
