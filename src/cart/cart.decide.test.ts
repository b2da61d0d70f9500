import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CartAnswer,
  type CartBatchState,
  type CartChanges,
  type CartOperation,
  type CartVariant,
  decideCartBatch,
  type LockedCart,
} from './cart.decide.js';

const limits = { maxLineQuantity: 9, maxCartLines: 3 };

function variant(variantId: number, spec: Partial<CartVariant> = {}): CartVariant {
  return {
    variantId,
    alias: `v${variantId}`,
    name: `Variant ${variantId}`,
    productName: 'Product',
    sku: null,
    price: 100 * variantId,
    trackInventory: true,
    allowBackorder: false,
    stock: 6,
    purchaseLimitPerOrder: null,
    buyable: true,
    ...spec,
  };
}

const variants = new Map([
  [1, variant(1)],
  [2, variant(2, { purchaseLimitPerOrder: 4 })],
  [3, variant(3, { trackInventory: false })],
  [4, variant(4, { buyable: false })],
  [5, variant(5, { allowBackorder: true, stock: 0 })],
]);

/**
 * The database as the write statement leaves it: carts with lines, each line dated by (batch, seq) as `created_at`
 * is (the transaction's time plus the line's sequence), and read back in that order as the lock statement reads it.
 */
class ModelDatabase {
  private nextId = 100;
  private batch = 0;
  readonly carts: {
    id: number;
    userId: number | null;
    tokenHash: string | null;
    closed: boolean;
    marketId: number | null;
    lines: { variantId: number; quantity: number; at: [number, number] }[];
  }[] = [];

  constructor(users: number[], guests: string[]) {
    for (const userId of users)
      this.carts.push({ id: this.nextId++, userId, tokenHash: null, closed: false, marketId: null, lines: [] });
    for (const tokenHash of guests) {
      this.carts.push({ id: this.nextId++, userId: null, tokenHash, closed: false, marketId: null, lines: [] });
    }
  }

  state(): CartBatchState {
    const carts: LockedCart[] = this.carts
      .filter((c) => !c.closed)
      .map((c) => ({
        id: c.id,
        userId: c.userId,
        tokenHash: c.tokenHash,
        marketId: c.marketId,
        lines: [...c.lines]
          .sort((a, b) => a.at[0] - b.at[0] || a.at[1] - b.at[1] || a.variantId - b.variantId)
          .map(({ variantId, quantity }) => ({ variantId, quantity })),
      }));
    return { carts, variants, limits };
  }

  apply(changes: CartChanges): void {
    this.batch++;
    for (const { tokenHash, marketId } of changes.newGuestCarts) {
      this.carts.push({ id: this.nextId++, userId: null, tokenHash, closed: false, marketId, lines: [] });
    }
    const cart = (id: number | null, tokenHash: string | null) => {
      const found = this.carts.find((c) => (id === null ? c.tokenHash === tokenHash : c.id === id));
      if (!found) throw new Error(`no cart ${id ?? tokenHash}`);
      return found;
    };
    for (const line of changes.inserts) {
      const lines = cart(line.cartId, line.tokenHash).lines;
      if (lines.some((l) => l.variantId === line.variantId)) throw new Error('duplicate key');
      lines.push({ variantId: line.variantId, quantity: line.quantity, at: [this.batch, line.seq] });
    }
    for (const change of changes.updates) {
      const line = cart(change.cartId, null).lines.find((l) => l.variantId === change.variantId);
      if (!line) throw new Error('updated a missing line');
      line.quantity = change.quantity;
      if (change.seq !== null) line.at = [this.batch, change.seq];
    }
    for (const gone of changes.deletes) {
      const c = cart(gone.cartId, null);
      c.lines = c.lines.filter((l) => l.variantId !== gone.variantId);
    }
    for (const id of changes.closeCartIds) cart(id, null).closed = true;
    for (const change of changes.marketChanges) cart(change.cartId, null).marketId = change.marketId;
  }
}

/** What a client sees of an answer: the lines, the merge's outcome, or the refusal's code. */
const seen = (answer: CartAnswer | undefined) =>
  answer === undefined
    ? undefined
    : !answer.ok
      ? answer.error.code
      : 'lines' in answer
        ? answer.lines.map((l) => [l.variantId, l.quantity])
        : answer.merged;

/** An answer as a client sees it, with the market the cart keeps after it. */
const seenWithMarket = (answer: CartAnswer | undefined) => [
  seen(answer),
  answer?.ok && 'marketId' in answer ? answer.marketId : undefined,
];

const users = [1, 2];
const guests = ['g-a', 'g-b'];
const address = fc.oneof(
  fc.constantFrom(...users).map((userId) => ({ userId })),
  fc.constantFrom(...guests, 'g-unknown').map((tokenHash) => ({ tokenHash, isNew: false })),
);
// Few variants and carts, so that operations meet on the same lines.
const variantId = fc.oneof({ weight: 9, arbitrary: fc.integer({ min: 1, max: 3 }) }, fc.integer({ min: 4, max: 6 }));
/** The market a request named, if any: the cart keeps it once the operation succeeds. */
const marketId = fc.constantFrom(7, 8);
const named: { requiredKeys: ('kind' | 'cart' | 'variantId' | 'quantity')[] } = {
  requiredKeys: ['kind', 'cart', 'variantId', 'quantity'],
};
const operation: fc.Arbitrary<CartOperation> = fc.oneof(
  fc.record(
    { kind: fc.constant('add' as const), cart: address, variantId, quantity: fc.integer({ min: 1, max: 5 }), marketId },
    named,
  ),
  fc.record(
    { kind: fc.constant('set' as const), cart: address, variantId, quantity: fc.integer({ min: 0, max: 7 }), marketId },
    named,
  ),
  fc.record(
    { kind: fc.constant('remove' as const), cart: address, variantId, marketId },
    { requiredKeys: ['kind', 'cart', 'variantId'] },
  ),
  fc.record({
    kind: fc.constant('merge' as const),
    userId: fc.constantFrom(...users),
    guestTokenHash: fc.constantFrom(...guests),
  }),
);
/** Each new guest cart has a token of its own, as `newCartToken` makes. */
const withNewGuests = (ops: CartOperation[], news: boolean[]) =>
  ops.map(
    (op, n): CartOperation =>
      op.kind === 'add' && news[n] ? { ...op, cart: { tokenHash: `new-${n}`, isNew: true } } : op,
  );

describe('a batch of cart writes', () => {
  it('answers and writes exactly what the same operations one at a time would', () => {
    fc.assert(
      fc.property(
        fc.array(operation, { maxLength: 20 }),
        fc.array(operation, { minLength: 1, maxLength: 25 }),
        fc.array(fc.boolean(), { minLength: 25, maxLength: 25 }),
        (before, ops, news) => {
          const batched = new ModelDatabase(users, guests);
          const alone = new ModelDatabase(users, guests);
          for (const db of [batched, alone])
            for (const op of before) db.apply(decideCartBatch([op], db.state()).changes);
          const batch = withNewGuests(ops, news);
          const decided = decideCartBatch(batch, batched.state());
          batched.apply(decided.changes);
          batch.forEach((op, n) => {
            const one = decideCartBatch([op], alone.state());
            alone.apply(one.changes);
            expect(seenWithMarket(decided.answers[n])).toEqual(seenWithMarket(one.answers[0]));
          });
          expect(batched.state()).toEqual(alone.state());
        },
      ),
      { numRuns: 400 },
    );
  });

  it('never writes a line past the line maximum, the purchase limit or the stock, nor more lines than the cap', () => {
    fc.assert(
      fc.property(fc.array(operation, { minLength: 1, maxLength: 40 }), (ops) => {
        const db = new ModelDatabase(users, guests);
        db.apply(decideCartBatch(ops, db.state()).changes);
        for (const cart of db.state().carts) {
          expect(cart.lines.length).toBeLessThanOrEqual(limits.maxCartLines);
          for (const line of cart.lines) {
            const v = variants.get(line.variantId) as CartVariant;
            expect(line.quantity).toBeGreaterThan(0);
            expect(line.quantity).toBeLessThanOrEqual(limits.maxLineQuantity);
            if (v.purchaseLimitPerOrder !== null) expect(line.quantity).toBeLessThanOrEqual(v.purchaseLimitPerOrder);
          }
        }
      }),
    );
  });
});

describe('cart operations', () => {
  const fresh = () => new ModelDatabase(users, guests);
  const user = { userId: 1 };

  it('applies adds to one line one after another, none lost', () => {
    const db = fresh();
    const adds = Array.from(
      { length: 5 },
      (): CartOperation => ({ kind: 'add', cart: user, variantId: 3, quantity: 1 }),
    );
    const { answers } = decideCartBatch(adds, db.state());
    expect(answers.map(seen)).toEqual([1, 2, 3, 4, 5].map((q) => [[3, q]]));
  });

  it('refuses the add that would pass the stock and changes nothing for it', () => {
    const db = fresh();
    const { answers, changes } = decideCartBatch(
      [
        { kind: 'add', cart: user, variantId: 1, quantity: 4 },
        { kind: 'add', cart: user, variantId: 1, quantity: 3 },
      ],
      db.state(),
    );
    expect(answers.map(seen)).toEqual([[[1, 4]], 'insufficient_stock']);
    expect(changes.inserts).toEqual([expect.objectContaining({ variantId: 1, quantity: 4 })]);
  });

  it('creates no cart for a new guest whose first add is refused', () => {
    const { answers, changes } = decideCartBatch(
      [{ kind: 'add', cart: { tokenHash: 'new', isNew: true }, variantId: 4, quantity: 1 }],
      fresh().state(),
    );
    expect(answers.map(seen)).toEqual(['variant_not_found']);
    expect(changes.newGuestCarts).toEqual([]);
  });

  it('puts a line removed and added again in one batch last, as it would be one request at a time', () => {
    const db = fresh();
    db.apply(
      decideCartBatch(
        [
          { kind: 'add', cart: user, variantId: 1, quantity: 1 },
          { kind: 'add', cart: user, variantId: 3, quantity: 1 },
        ],
        db.state(),
      ).changes,
    );
    const { answers, changes } = decideCartBatch(
      [
        { kind: 'remove', cart: user, variantId: 1 },
        { kind: 'add', cart: user, variantId: 1, quantity: 2 },
      ],
      db.state(),
    );
    expect(answers.map(seen)).toEqual([
      [[3, 1]],
      [
        [3, 1],
        [1, 2],
      ],
    ]);
    expect(changes.updates).toEqual([{ cartId: 100, variantId: 1, quantity: 2, seq: 0 }]);
    expect(changes.deletes).toEqual([]);
  });

  it('merges a guest cart capped at the stock and purchase limit, closes it, and refuses its token afterwards', () => {
    const db = fresh();
    const guest = { tokenHash: 'g-a', isNew: false };
    db.apply(
      decideCartBatch(
        [
          { kind: 'add', cart: guest, variantId: 1, quantity: 5 },
          { kind: 'add', cart: guest, variantId: 2, quantity: 3 },
          { kind: 'add', cart: user, variantId: 1, quantity: 4 },
          { kind: 'add', cart: user, variantId: 2, quantity: 2 },
        ],
        db.state(),
      ).changes,
    );
    const { answers } = decideCartBatch(
      [
        { kind: 'merge', userId: 1, guestTokenHash: 'g-a' },
        { kind: 'merge', userId: 1, guestTokenHash: 'g-a' },
        { kind: 'add', cart: guest, variantId: 3, quantity: 1 },
        { kind: 'add', cart: user, variantId: 3, quantity: 1 },
      ],
      db.state(),
    );
    expect(answers.map(seen)).toEqual([
      true,
      false,
      'cart_not_found',
      [
        [1, 6],
        [2, 4],
        [3, 1],
      ],
    ]);
  });

  it('keeps the market a successful write named, leaves it on a write naming none or refused', () => {
    const db = fresh();
    const decided = decideCartBatch(
      [
        { kind: 'add', cart: user, variantId: 1, quantity: 1, marketId: 7 },
        { kind: 'add', cart: user, variantId: 3, quantity: 1 },
        { kind: 'add', cart: user, variantId: 4, quantity: 1, marketId: 8 },
      ],
      db.state(),
    );
    expect(decided.answers.map(seenWithMarket)).toEqual([
      [[[1, 1]], 7],
      [
        [
          [1, 1],
          [3, 1],
        ],
        7,
      ],
      ['variant_not_found', undefined],
    ]);
    expect(decided.changes.marketChanges).toEqual([{ cartId: 100, marketId: 7 }]);
    db.apply(decided.changes);
    const moved = decideCartBatch([{ kind: 'set', cart: user, variantId: 1, quantity: 2, marketId: 8 }], db.state());
    expect(moved.changes.marketChanges).toEqual([{ cartId: 100, marketId: 8 }]);
    const fresher = decideCartBatch(
      [{ kind: 'add', cart: { tokenHash: 'new', isNew: true }, variantId: 1, quantity: 1, marketId: 8 }],
      db.state(),
    );
    expect(fresher.changes.newGuestCarts).toEqual([{ tokenHash: 'new', marketId: 8 }]);
  });

  it("gives a merged cart the guest's market when the guest cart kept one, else leaves the user's", () => {
    const db = fresh();
    const guestA = { tokenHash: 'g-a', isNew: false };
    const guestB = { tokenHash: 'g-b', isNew: false };
    db.apply(
      decideCartBatch(
        [
          { kind: 'add', cart: user, variantId: 1, quantity: 1, marketId: 7 },
          { kind: 'add', cart: guestA, variantId: 3, quantity: 1 },
          { kind: 'add', cart: guestB, variantId: 3, quantity: 1, marketId: 8 },
        ],
        db.state(),
      ).changes,
    );
    const unnamed = decideCartBatch([{ kind: 'merge', userId: 1, guestTokenHash: 'g-a' }], db.state());
    expect(unnamed.changes.marketChanges).toEqual([]);
    db.apply(unnamed.changes);
    const named = decideCartBatch([{ kind: 'merge', userId: 1, guestTokenHash: 'g-b' }], db.state());
    expect(named.changes.marketChanges).toEqual([{ cartId: 100, marketId: 8 }]);
  });
});
