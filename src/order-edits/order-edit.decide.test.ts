import { describe, expect, it } from 'vitest';
import type { OrderLineRow } from '../orders/orders.repository.js';
import type { PlacedOrderBasis } from '../pricing/order-as-placed.js';
import { DomainError } from '../shared/errors.js';
import { refundForReturnedUnits } from '../pricing/return-refund.js';
import { decideOrderEdit, type EditedVariant, editRefusal } from './order-edit.decide.js';

// An order of 2 mugs at 10.00 (stock taken) and 1 sticker at 1.00 (untracked: no stock taken), untaxed, no shipping.
const line = (l: Pick<OrderLineRow, 'id' | 'alias' | 'quantity' | 'unitPrice' | 'stockReserved'>) =>
  ({
    ...l,
    variantId: l.id,
    productId: l.id,
    subtotal: l.unitPrice * l.quantity,
    discount: 0,
    tax: 0,
    total: l.unitPrice * l.quantity,
    adjustments: [],
  }) as unknown as OrderLineRow;
/** An order's stored figures, of lines without shipping nor promotions. */
const orderOf = (figures: { total: number; subtotal?: number; discount?: number; tax?: number; items: number }) => ({
  alias: 'o',
  total: figures.total,
  pricesIncludeTax: false,
  subtotal: figures.subtotal ?? figures.total,
  discount: figures.discount ?? 0,
  shippingFee: 0,
  shippingDiscount: 0,
  shippingTax: 0,
  estimatedTax: figures.tax ?? 0,
  totalItems: figures.items,
  promotions: [],
});
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
    order: orderOf({ total: 2100, items: 3 }),
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

// Issue #27: an edit and a return refund the same unit the same. A line of mugs with an admin's discount (a custom
// discount: it is a fixed amount, so pricing the order again would keep all of it on the units left), taxed on net
// prices. Taking a unit off by an edit gives back what returning it refunds: the first unit's share of the line's
// stored discount and tax (largest remainder, the odd minor units with the first units), never the order priced again.
describe('a unit taken off by an edit refunds what a return of it does', () => {
  const cases = [
    {
      // USD: 2 mugs at 14.50, 2.90 off, 7.25 % tax. Net 26.10, tax 1.89225 → 1.89, total 27.99. The first mug
      // carries 1.45 of the discount and 0.95 of the tax (1.89 = 0.95 + 0.94): 14.50 − 1.45 + 0.95 = 14.00.
      // Priced again, one mug would keep the whole 2.90 off: 11.60 + 0.84 tax = 12.44, giving back 15.55.
      currency: 'USD',
      quantity: 2,
      unitPrice: 1450,
      discount: 290,
      taxRate: '7.25',
      tax: 189,
      total: 2799,
      givesBack: 1400,
    },
    {
      // JPY: 3 cups at ¥1,000, ¥100 off, 10 % tax. Net ¥2,900, tax ¥290, total ¥3,190. The first cup carries ¥34 of
      // the discount (100 = 34 + 33 + 33) and ¥97 of the tax (290 = 97 + 97 + 96): 1,000 − 34 + 97 = ¥1,063.
      currency: 'JPY',
      quantity: 3,
      unitPrice: 1000,
      discount: 100,
      taxRate: '10',
      tax: 290,
      total: 3190,
      givesBack: 1063,
    },
    {
      currency: 'KWD',
      worked:
        '3 lamps at 4.250, 1.000 off, 7.5 % tax: net 11.750, tax 0.881 (881.25 fils), total 12.631; the first lamp '
        + 'carries 0.334 off (1.000 = 0.334 + 0.333 + 0.333) and 0.294 tax (0.881 = 0.294 + 0.294 + 0.293): '
        + '4.250 − 0.334 + 0.294 = 4.210',
      quantity: 3,
      unitPrice: 4250,
      discount: 1000,
      taxRate: '7.5',
      tax: 881,
      total: 12631,
      givesBack: 4210,
    },
  ];

  for (const c of cases) {
    const worked = 'worked' in c ? ` (${c.worked})` : '';
    it(`gives back ${c.givesBack} minor units of ${c.currency} through both${worked}`, () => {
      const stored = {
        ...line({ id: 1, alias: 'mug', quantity: c.quantity, unitPrice: c.unitPrice, stockReserved: true }),
        discount: c.discount,
        tax: c.tax,
        total: c.total,
      } as OrderLineRow;
      const subtotal = c.quantity * c.unitPrice;
      // The return: what refunding the first unit gives (src/returns/return.decide.ts asks the same function).
      const returned = refundForReturnedUnits({
        pricesIncludeTax: false,
        lines: [{ line: stored, quantity: 1, returnedBefore: 0 }],
        shipping: null,
      });
      expect(returned.ok && returned.refund.amountMinor).toBe(c.givesBack);
      // The edit: the line from c.quantity to c.quantity − 1.
      const edit = decideOrderEdit({
        order: { ...orderOf({ total: c.total, subtotal, discount: c.discount, tax: c.tax, items: c.quantity }) },
        lines: [stored],
        basis: {
          currency: c.currency,
          pricesIncludeTax: false,
          lines: [
            {
              alias: 'mug',
              variantId: 1,
              productId: 1,
              name: 'mug',
              quantity: c.quantity,
              unitPriceMinor: c.unitPrice,
              taxClassName: 'Standard',
              taxRate: c.taxRate,
            },
          ],
          shipping: null,
          discountName: 'Staff',
          discountMinor: c.discount,
          promotions: [],
        },
        changes: [{ alias: 'mug', quantity: c.quantity - 1 }],
        variants: new Map(),
        roundingMode: 'half_up',
      });
      expect(edit.difference).toBe(-c.givesBack);
      const [kept] = edit.priced.lines;
      // The units left keep the rest of the stored figures: another return of them gives back exactly the rest.
      expect(kept).toMatchObject({
        quantity: c.quantity - 1,
        subtotalMinor: subtotal - c.unitPrice,
        totalMinor: c.total - c.givesBack,
      });
      expect(edit.priced.totalMinor).toBe(c.total - c.givesBack);
      expect(edit.priced.subtotalMinor - edit.priced.discountMinor + edit.priced.estimatedTaxMinor).toBe(
        edit.priced.totalMinor,
      );
    });
  }

  it('prices the order again when the edit also adds a unit: that is a new price, not a refund of units', () => {
    const plate = variant({ id: 7, alias: 'plate', priceMinor: 450 });
    const decision = decide(
      [
        { alias: 'mug', quantity: 1 },
        { alias: 'plate', quantity: 1 },
      ],
      [plate],
    );
    expect(decision.priced.totalMinor).toBe(1000 + 100 + 450);
  });
});
