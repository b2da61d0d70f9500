import { eq } from 'drizzle-orm';
import type { Tx } from '../db/client.js';
import { promoCodes, promotions } from '../db/schema.js';
import { promoCodeView } from './promo-codes.bridge.js';
import type { PromotionRow } from './promotions.repository.js';

/**
 * TRANSITIONAL, until estimate and placement read promotions: they still read the promo_codes table, so every write to
 * a promotion keeps its promo_codes row (linked by legacy_promo_code_id) in step, in the same transaction. A promotion
 * with a promo code's shape has an active row with its code and rules; any other (archived, automatic, or with rules
 * a promo code cannot express) keeps its row, if it has one, switched off and under a code nobody can type, so the
 * code is free for another promotion while the row's orders and redemption records stay. When placement switches,
 * delete this file and its calls (and copy the redemptions recorded on promo_codes since migration 0014 with that
 * migration's own statement).
 */
export async function syncLegacyPromoCode(tx: Tx, row: PromotionRow): Promise<PromotionRow> {
  const view = promoCodeView(row);
  if (view === null) {
    if (row.legacyPromoCodeId !== null) {
      await tx
        .update(promoCodes)
        .set({ isActive: false, code: `~promotion-${row.id}`, updatedAt: new Date() })
        .where(eq(promoCodes.id, row.legacyPromoCodeId));
    }
    return row;
  }
  const { id: _id, timesUsed: _timesUsed, createdAt: _createdAt, updatedAt: _updatedAt, ...columns } = view;
  if (row.legacyPromoCodeId !== null) {
    const [updated] = await tx
      .update(promoCodes)
      .set({ ...columns, updatedAt: new Date() })
      .where(eq(promoCodes.id, row.legacyPromoCodeId))
      .returning({ id: promoCodes.id });
    if (updated) return row;
  }
  const [inserted] = await tx.insert(promoCodes).values(columns).returning({ id: promoCodes.id });
  if (!inserted) throw new Error('insert returned no promo code');
  const [linked] = await tx
    .update(promotions)
    .set({ legacyPromoCodeId: inserted.id })
    .where(eq(promotions.id, row.id))
    .returning();
  if (!linked) throw new Error(`promotion ${row.id} vanished in its own transaction`);
  return linked;
}
