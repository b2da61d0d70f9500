import { describe, expect, it } from 'vitest';
import { compileBodyValidator } from '../src/http/validation.js';
import {
  isOptional,
  type KindField,
  perCurrencyName,
  perCurrencyPricingName,
  pricingName,
} from '../src/pricing/promotions/kind-fields.js';
import { freshContext, testOrder } from '../src/pricing/promotions/promotion.testing.js';
import type { PromotionAction, PromotionCondition } from '../src/pricing/promotions/promotion.types.js';
import {
  actionKinds,
  actionModules,
  checkCondition,
  conditionKinds,
  conditionModules,
  type KindDescription,
  takeOf,
} from '../src/pricing/promotions/registry.js';
import { promotionFromRow } from '../src/promotions/promotions.mapper.js';
import { presentPromotion } from '../src/promotions/promotions.presenter.js';
import type { PromotionRow } from '../src/promotions/promotions.repository.js';
import { Promotion, PromotionAction as ActionSchema, PromotionInput } from '../src/promotions/promotions.schema.js';
import { newPromotionValues, productReferences } from '../src/promotions/promotions.values.js';
import { currencyFormat } from '../src/shared/money.js';
import {
  emptyPart,
  fieldInput,
  type PartReader,
  partBody,
  partDraft,
  partSummary,
} from '../web/admin/pages/promotions/part-draft.js';

// Every registered condition and action kind is covered by every shape derived from its module: the API's schema,
// the stored form, the mapping to pricing, the answers' money, the product ids checked, and the dashboard's inputs,
// draft and body. The lists are derived from the registry; this fails if one is ever written out again and a kind
// is left out of it. A kind needs nothing here: each is tried with a value of each of its fields' sorts.

const usd = currencyFormat('USD');

/** A value of each sort: as the API takes and answers it, and as it is stored. */
const samples: { [S in KindField['sort']]: (field: Extract<KindField, { sort: S }>) => [unknown, unknown] } = {
  money: () => ['12.34', 1234],
  percent: () => ['12.5', '12.5'],
  units: () => [2, 2],
  unitsOrNull: () => [3, 3],
  productIds: () => [[5], [5]],
  productScope: () => [[6], [6]],
  flag: (field) => [!field.default, !field.default],
};

function sample(kind: KindDescription): { wire: Record<string, unknown>; stored: Record<string, unknown> } {
  const wire: Record<string, unknown> = { type: kind.type };
  const stored: Record<string, unknown> = { type: kind.type };
  for (const [name, field] of Object.entries(kind.fields)) {
    [wire[name], stored[name]] = (samples[field.sort] as (f: KindField) => [unknown, unknown])(field);
    // A money field's amounts in other currencies, each at its own precision (decision 0037).
    if (field.sort === 'money') {
      wire[perCurrencyName(name)] = { EUR: '11.00', JPY: '1500', KWD: '3.750' };
      stored[perCurrencyName(name)] = { EUR: 1100, JPY: 1500, KWD: 3750 };
    }
  }
  return { wire, stored };
}

const isOptionalField = (kind: KindDescription, name: string) => {
  const field = kind.fields[name];
  return field !== undefined && isOptional(field);
};

const row = (parts: Pick<PromotionRow, 'conditions' | 'action'>): PromotionRow => ({
  id: 1,
  name: 'Every kind',
  code: null,
  isActive: true,
  startsAt: null,
  expiresAt: null,
  priority: 0,
  combinable: true,
  redemptionLimit: null,
  usageLimitPerCustomer: null,
  newCustomersOnly: false,
  specificCustomers: null,
  timesUsed: 0,
  archivedAt: null,
  createdAt: new Date('2026-01-01T00:00:00Z'),
  updatedAt: new Date('2026-01-01T00:00:00Z'),
  ...parts,
});

/** The dashboard's reading of a field's text, as `formReader` does it for text that is right. */
const reader: PartReader = {
  integer: (_field, text) => Number(text),
  integerOrNull: (_field, text) => (text.trim() === '' ? null : Number(text)),
  ids: (_field, text) => text.split(/[\s,]+/).map(Number),
  idsOrNull: (_field, text) => (text.trim() === '' ? null : text.split(/[\s,]+/).map(Number)),
};
const idsText = (ids: readonly number[] | null) => (ids ? ids.join(', ') : '');

const validBody = compileBodyValidator(PromotionInput);
const branchTypes = (schema: object, key: 'oneOf' | 'anyOf') =>
  ((schema as Record<string, unknown>)[key] as { properties: { type: { const: string } } }[]).map(
    (branch) => branch.properties.type.const,
  );

describe.each([
  { part: 'condition', kinds: conditionKinds, modules: conditionModules },
  { part: 'action', kinds: actionKinds, modules: actionModules },
])('every registered $part kind', ({ part, kinds, modules }) => {
  const action = { type: 'free_shipping' };
  const bodyWith = (wire: Record<string, unknown>) =>
    part === 'condition' ? { name: 'Every kind', conditions: [wire], action } : { name: 'Every kind', action: wire };
  const storedWith = (stored: Record<string, unknown>) =>
    (part === 'condition' ? { conditions: [stored], action } : { conditions: [], action: stored }) as unknown as Pick<
      PromotionRow,
      'conditions' | 'action'
    >;
  const storedOf = (values: Partial<Pick<PromotionRow, 'conditions' | 'action'>>) =>
    part === 'condition' ? values.conditions?.[0] : values.action;
  const at = part === 'condition' ? 'conditions[0]' : 'action';

  it('is listed under its own type, in the order the API and the dashboard show', () => {
    expect(Object.keys(modules)).toEqual(kinds.map((k) => k.type));
    for (const [type, module] of Object.entries(modules)) expect(module.type).toBe(type);
  });

  it.each(kinds)('$type: has a branch in the schemas of a request and of an answer', (kind) => {
    const conditionSchema = (PromotionInput.properties.conditions as unknown as { items: object }).items;
    const request = part === 'condition' ? conditionSchema : ActionSchema;
    const answer =
      part === 'condition'
        ? (Promotion.properties.conditions as unknown as { items: object }).items
        : Promotion.properties.action;
    expect(branchTypes(request, 'oneOf')).toContain(kind.type);
    expect(branchTypes(answer, 'anyOf')).toContain(kind.type);
    const { example } = (modules as Record<string, { example: object }>)[kind.type] ?? {};
    expect(validBody(bodyWith({ ...example }))).toBe(true);
    expect(validBody(bodyWith(sample(kind).wire))).toBe(true);
  });

  it.each(kinds)('$type: is stored with its money in minor units and shown again as sent', (kind) => {
    const { wire, stored } = sample(kind);
    const values = newPromotionValues(bodyWith(wire) as Parameters<typeof newPromotionValues>[0], usd);
    expect(storedOf(values)).toEqual(stored);
    expect(storedOf(presentPromotion(row(storedWith(stored)), usd) as never)).toEqual(wire);
  });

  it.each(kinds)('$type: stores an optional field left out as null (a flag as its default)', (kind) => {
    const { wire } = sample(kind);
    const sent = Object.fromEntries(Object.entries(wire).filter(([name]) => !isOptionalField(kind, name)));
    const stored = storedOf(newPromotionValues(bodyWith(sent) as Parameters<typeof newPromotionValues>[0], usd));
    for (const [name, field] of Object.entries(kind.fields)) {
      if (!isOptional(field)) continue;
      expect((stored as Record<string, unknown>)[name]).toEqual(field.sort === 'flag' ? field.default : null);
    }
  });

  it.each(kinds)('$type: names every product field among the ids to check', (kind) => {
    const { stored } = sample(kind);
    const named = productReferences(storedWith(stored)).map((r) => r.field);
    const expected = Object.entries(kind.fields)
      .filter(([, field]) => field.sort === 'productIds' || field.sort === 'productScope')
      .map(([name]) => `${at}.${name}`);
    expect(named).toEqual(expected);
  });

  it.each(kinds)('$type: reaches pricing under pricing’s names, and its rule runs on it', (kind) => {
    const { stored } = sample(kind);
    const promotion = promotionFromRow(row(storedWith(stored)));
    const priced = (part === 'condition' ? promotion.conditions[0] : promotion.action) as Record<string, unknown>;
    const expected: Record<string, unknown> = { type: kind.type };
    for (const [name, field] of Object.entries(kind.fields)) {
      expected[pricingName(name, field)] = stored[name];
      if (field.sort === 'money') expected[perCurrencyPricingName(name)] = stored[perCurrencyName(name)];
    }
    expect(priced).toEqual(expected);
    const lines: [number, number, number][] = [
      [5, 1000, 3],
      [6, 500, 4],
    ];
    if (part === 'condition') {
      expect(checkCondition(priced as unknown as PromotionCondition, testOrder(lines))).toHaveProperty('holds');
    } else {
      const take = takeOf(priced as unknown as PromotionAction, freshContext(lines, { shippingMinor: 490 }));
      expect(take.shippingMinor).toBeLessThanOrEqual(490);
    }
  });

  it.each(kinds)('$type: has the dashboard’s inputs, draft and body, and its summary', (kind) => {
    const { wire } = sample(kind);
    expect(kind.label).not.toBe('');
    for (const field of Object.values(kind.fields)) expect(fieldInput(field, 'USD').label).toContain(field.label);
    const empty = emptyPart(kinds, kind.type);
    for (const [name, field] of Object.entries(kind.fields)) {
      expect(field.sort === 'flag' ? empty.flags : empty.text).toHaveProperty(name);
    }
    const draft = partDraft(kinds, wire as { type: string }, idsText);
    expect(partBody(kinds, draft, { at, read: reader })).toEqual(wire);
    expect(partSummary(kinds, wire as { type: string }, 'USD')).toContain(kind.label);
  });
});
