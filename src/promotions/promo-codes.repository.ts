import { and, asc, gt, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.js';
import { products, promotions, users } from '../db/schema.js';
import type { KeysetPage } from '../http/paging.js';
import { DomainError } from '../shared/errors.js';
import {
  type PromoCodeFields,
  type PromoCodeView,
  promoCodeView,
  promotionFromPromoCode,
} from './promo-codes.bridge.js';
import {
  archivePromotion,
  createPromotion,
  findPromotion,
  type PromotionRow,
  updatePromotion,
} from './promotions.repository.js';
import { FieldErrors } from './promotions.values.js';

// The promo-codes API, kept for the clients written against it, over the promotions table: a promo code is a code
// promotion with a promo code's shape (promo-codes.bridge.ts). Ids are the promotions' ids.

const notFound = (id: number) =>
  new DomainError('promo_code_not_found', {
    detail:
      `promo code ${id} not found (a promotion of that id that is not a promo code is at `
      + `/discount/dashboard/api/promotions/${id}/)`,
  });

/** The promotions API's "not found" and "archived" are the promo codes API's "not found". */
async function asPromoCode<T>(id: number, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof DomainError && (err.code === 'promotion_not_found' || err.code === 'promotion_archived'))
      throw notFound(id);
    throw err;
  }
}

/** A name for a promotion made through the promo-codes API, which has none. */
const defaultName = (code: string) => `Promo code ${code}`;

/** Every listed user and product must exist; each one that doesn't is named by its position, as this API names it. */
async function assertReferences(tx: Tx, fields: Partial<PromoCodeFields>): Promise<void> {
  const errors = new FieldErrors();
  const check = async (field: string, ids: number[] | null | undefined, table: typeof users | typeof products) => {
    if (!ids || ids.length === 0) return;
    const found = new Set(
      (await tx.select({ id: table.id }).from(table).where(inArray(table.id, ids))).map((r) => r.id),
    );
    ids.forEach((id, i) => {
      if (!found.has(id)) errors.add(`${field}[${i}]`, `names no ${table === users ? 'user' : 'product'}`);
    });
  };
  await check('specific_customers', fields.specificCustomers, users);
  await check('applicable_products', fields.applicableProducts, products);
  errors.throwIfAny();
}

/**
 * A page of codes in id order; `after` is the last id of the previous page (keyset pagination). Code promotions that
 * are not promo codes are skipped, so a page may hold fewer than `limit`; `next` is null at the end.
 */
export async function listPromoCodes(
  db: Db,
  query: { limit: number; after?: number },
): Promise<KeysetPage<PromoCodeView, number>> {
  const items: PromoCodeView[] = [];
  let after = query.after;
  for (;;) {
    const rows = await db
      .select()
      .from(promotions)
      .where(
        and(
          isNotNull(promotions.code),
          isNull(promotions.archivedAt),
          sql`${promotions.action}->>'type' in ('order_percentage', 'order_fixed', 'free_shipping')`,
          after === undefined ? undefined : gt(promotions.id, after),
        ),
      )
      .orderBy(asc(promotions.id))
      .limit(query.limit + 1);
    for (const row of rows) {
      const view = promoCodeView(row);
      if (!view) continue;
      if (items.length === query.limit) return { items, next: items.at(-1)?.id ?? null };
      items.push(view);
    }
    if (rows.length <= query.limit) return { items, next: null };
    after = rows.at(-1)?.id;
  }
}

function viewOf(row: PromotionRow): PromoCodeView {
  const view = promoCodeView(row);
  if (!view) throw notFound(row.id);
  return view;
}

export async function findPromoCode(db: Db, id: number): Promise<PromoCodeView> {
  return viewOf(await asPromoCode(id, () => findPromotion(db, id)));
}

export async function createPromoCode(db: Db | Tx, fields: PromoCodeFields): Promise<PromoCodeView> {
  const values = { name: defaultName(fields.code), ...promotionFromPromoCode(fields) };
  return viewOf(await createPromotion(db, values, (tx) => assertReferences(tx, fields)));
}

/**
 * Changes a code: `change` sees the stored code and returns the fields that change. A promotion still named after its
 * code follows a new code.
 */
export async function updatePromoCode(
  db: Db,
  id: number,
  change: (current: PromoCodeView) => Partial<PromoCodeFields>,
): Promise<PromoCodeView> {
  const row = await asPromoCode(id, () =>
    updatePromotion(db, id, async (current, tx) => {
      const view = viewOf(current);
      const changes = change(view);
      await assertReferences(tx, changes);
      const { id: _id, timesUsed: _timesUsed, createdAt: _createdAt, updatedAt: _updatedAt, ...fields } = view;
      const next = { ...fields, ...changes };
      const renamed = current.name === defaultName(view.code) && next.code !== view.code;
      return { ...promotionFromPromoCode(next), ...(renamed ? { name: defaultName(next.code) } : {}) };
    }),
  );
  return viewOf(row);
}

/** Archives the code's promotion: the code stops working and is free again; its history stays. */
export async function deletePromoCode(db: Db, id: number): Promise<void> {
  await asPromoCode(id, () => archivePromotion(db, id, viewOf));
}
