import type { PromotionActionType } from './promotion.types.js';

/** A promotion that took something off the order, and how much in all (lines and shipping). */
export interface AppliedPromotion {
  id: number;
  name: string;
  /** Null for an automatic promotion. */
  code: string | null;
  /** The kind of its action (`order_percentage`, `buy_x_get_y`, …). */
  kind: PromotionActionType;
  amountMinor: number;
}

/** What one applied promotion took off one line. */
export interface LineAdjustment {
  promotionId: number;
  amountMinor: number;
}
