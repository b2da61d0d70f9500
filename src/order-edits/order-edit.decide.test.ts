import { describe, expect, it } from 'vitest';
import type { OrderLineRow } from '../orders/orders.repository.js';
import type { PlacedOrderBasis } from '../pricing/order-as-placed.js';
import { DomainError } from '../shared/errors.js';
import { decideOrderEdit, type EditedVariant, editRefusal } from './order-edit.decide.js';

// An order of 2 mugs at 10.00 (stock taken) and 1 sticker at 1.00 (untracked: no stock taken), untaxed, no shipping.
const line = (l: Pick<OrderLineRow, 'id' | 'alias' | 'quantity' | 'unitPrice' | 'stockReserved'>) =>
  ({ ...l, variantId: l.id, productId: l.id }) as OrderLineRow;
const lines = [
  line({ id: 1, alias: 'mug', quantity: 2, unitPrice: 1000, stockReserved: true }),
  line({ id: 2, alias: 'sticker', quantity: 1, unitPrice: 100, stockReserved: false }),
];
const basis: PlacedOrderBasis = {
  currency: 'USD',
  pricesIncludeTax: false,
  lines: lines.map((l) => ({
    alias: l.alias,
    variantId: l.variantId,
    productId: l.productId,
    name: l.alias,
    quantity: l.quantity,
    unitPriceMinor: l.unitPrice,
    taxClassName: null,
    taxRate: '0',
  })),
  shipping: null,
  discountName: null,
  discountMinor: 0,
  promotions: [],
};
const variant = (fields: Partial<EditedVariant> & { id: number; alias: string }): EditedVariant => ({
  productId: fields.id,
  name: fields.alias,
  productName: fields.alias,
  variantName: fields.alias,
  sku: null,
  options: [],
  image: null,
  priceMinor: 500,
  trackInventory: true,
  allowBackorder: false,
  stock: 10,
  purchaseLimitPerOrder: null,
  archivedAt: null,
  productArchivedAt: null,
  taxClassName: null,
  taxRate: '0',
  ...fields,
});
const decide = (changes: { alias: string; quantity: number }[], variants: EditedVariant[] = []) =>
  decideOrderEdit({
    order: { alias: 'o', total: 2100 },
    lines,
    basis,
    changes,
    variants: new Map(variants.map((v) => [v.alias, v])),
    roundingMode: 'half_up',
  });
const codeOf = (work: () => unknown) => {
  try {
    work();
  } catch (err) {
    if (err instanceof DomainError) return err.code;
    throw err;
  }
  return undefined;
};

describe('decideOrderEdit', () => {
  it('moves stock only for lines that took it: more mugs take, fewer stickers give nothing back', () => {
    const mug = variant({ id: 1, alias: 'mug', stock: 1, priceMinor: 9999 });
    const decision = decide(
      [
        { alias: 'mug', quantity: 3 },
        { alias: 'sticker', quantity: 0 },
      ],
      [mug],
    );
    expect(decision.stock).toEqual(new Map([[1, -1]]));
    // The mug keeps its placed price (10.00), not today's 99.99: 3 × 10.00.
    expect(decision.priced.totalMinor).toBe(3000);
    expect(decision.difference).toBe(900);
    expect(decision.lines.map((l) => l.kind)).toEqual(['changed', 'removed']);
  });

  it('adds a new variant at its price now, taking its stock when it is counted', () => {
    const plate = variant({ id: 7, alias: 'plate', priceMinor: 450 });
    const decision = decide([{ alias: 'plate', quantity: 2 }], [plate]);
    expect(decision.stock).toEqual(new Map([[7, -2]]));
    expect(decision.priced.totalMinor).toBe(2100 + 900);
    const untracked = decide([{ alias: 'plate', quantity: 2 }], [{ ...plate, trackInventory: false }]);
    expect(untracked.stock.size).toBe(0);
    expect(untracked.lines.at(-1)).toMatchObject({ kind: 'added', stockReserved: false });
  });

  it('refuses what cannot be sold, and edits that change nothing or empty the order', () => {
    const mug = variant({ id: 1, alias: 'mug', stock: 0 });
    expect(codeOf(() => decide([{ alias: 'mug', quantity: 3 }], [mug]))).toBe('insufficient_stock');
    expect(codeOf(() => decide([{ alias: 'mug', quantity: 1 }], [mug]))).toBeUndefined();
    const archived = variant({ id: 8, alias: 'old', archivedAt: new Date() });
    expect(codeOf(() => decide([{ alias: 'old', quantity: 1 }], [archived]))).toBe('variant_unavailable');
    const limited = variant({ id: 9, alias: 'rare', purchaseLimitPerOrder: 1 });
    expect(codeOf(() => decide([{ alias: 'rare', quantity: 2 }], [limited]))).toBe('purchase_limit_exceeded');
    expect(codeOf(() => decide([{ alias: 'nope', quantity: 1 }]))).toBe('unknown_variant');
    expect(codeOf(() => decide([{ alias: 'mug', quantity: 2 }]))).toBe('validation_error');
    expect(
      codeOf(() =>
        decide([
          { alias: 'mug', quantity: 0 },
          { alias: 'sticker', quantity: 0 },
        ]),
      ),
    ).toBe('validation_error');
  });

  it('lets pending, approved and processing orders without fulfilments be edited, no others', () => {
    for (const status of ['pending', 'approved', 'processing'] as const) {
      expect(editRefusal({ alias: 'o', status, fulfilled: false })).toBeUndefined();
      expect(editRefusal({ alias: 'o', status, fulfilled: true })?.code).toBe('order_not_editable');
    }
    for (const status of ['shipped', 'delivered', 'cancelled'] as const) {
      expect(editRefusal({ alias: 'o', status, fulfilled: false })?.code).toBe('order_not_editable');
    }
  });
});
