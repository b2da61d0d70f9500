import type { RoundingMode } from '../../shared/money.js';
import type { KindFields, PricingForm, WireForm } from './kind-fields.js';
import type {
  PromotionAction,
  PromotionActionType,
  PromotionCondition,
  PromotionConditionType,
} from './promotion.types.js';

/**
 * The contracts of the rule modules: one module per condition kind (`conditions/`) and per action kind (`actions/`),
 * listed in `registry.ts`. A module is pure: facts in, a verdict or the amounts it takes out. It also describes its
 * fields once (`kind-fields.ts`); the admin API's schema, the stored form, the mapping to pricing's form, the
 * answers' money and the product ids to check, and the dashboard's inputs are derived from that description.
 */

/** What every kind declares besides its rule: its name, its fields, and what the API and the dashboard say of it. */
export interface PromotionKind<T extends string, F extends KindFields> {
  /** The `type` that names the kind on the API, in storage and in pricing. */
  readonly type: T;
  /** The dashboard's name for it ("Percent off the order"). */
  readonly label: string;
  /** The admin API's description of it (OpenAPI). */
  readonly description: string;
  /** A body of the kind as the API takes it, for the OpenAPI document. */
  readonly example: NoInfer<WireForm<T, F>>;
  readonly fields: F;
}

/** What conditions look at: the order before any discount. */
export interface PromotionOrder {
  /** Store currency, for the sentences that name amounts. */
  currency: string;
  /** Σ unit price × quantity, before any discount. */
  subtotalMinor: number;
  lines: readonly { productId: number; quantity: number }[];
}

/** A condition holds, or why not: a sentence that follows the promotion's label ("promo code SAVE10 …"). */
export type ConditionVerdict = { holds: true } | { holds: false; reason: string };

export type ConditionOf<T extends PromotionConditionType> = Extract<PromotionCondition, { type: T }>;

export interface PromotionConditionModule<T extends string = string, F extends KindFields = KindFields>
  extends PromotionKind<T, F> {
  check(condition: PricingForm<T, F>, order: PromotionOrder): ConditionVerdict;
}

/** A condition kind's module, its rule's argument typed from its fields. */
export const conditionKind = <T extends string, F extends KindFields>(
  module: PromotionConditionModule<T, F>,
): PromotionConditionModule<T, F> => module;

/** `count` units of one line, each with `valueMinor` left after the promotions applied before. */
export interface UnitRun {
  valueMinor: number;
  count: number;
}

/** An order line as an action sees it: what is left of each of its units, cheapest first. */
export interface LineLeft {
  productId: number;
  unitPriceMinor: number;
  quantity: number;
  /** Sorted by `valueMinor` ascending, one run per value; the counts add up to `quantity`. */
  units: readonly UnitRun[];
  /**
   * The units among `units` that a buy-get promotion applied before already used, bought to qualify or given, by what
   * is left of them (runs as in `units`; empty until a buy-get applies). A later buy-get uses only the others; the
   * other actions see every unit. The bookkeeping is `claimed-units.ts`.
   */
  claimed: readonly UnitRun[];
}

/** What an action acts on: the amounts left by the promotions applied before it. */
export interface ActionContext {
  lines: readonly LineLeft[];
  /** The shipping fee left (0 without shipping). */
  shippingLeftMinor: number;
  roundingMode: RoundingMode;
}

/**
 * `count` units of line `line` (an index into `ActionContext.lines`) whose left value is `valueMinor` each lose
 * `offMinor`.
 */
export interface UnitTake {
  line: number;
  valueMinor: number;
  count: number;
  offMinor: number;
}

/** `count` units of line `line` whose left value is `valueMinor` (before the action's takes) that an action used up. */
export interface UnitClaim {
  line: number;
  valueMinor: number;
  count: number;
}

/** What an action takes off: from units of lines, and from the shipping fee. Never more than is left. */
export interface ActionTake {
  units: readonly UnitTake[];
  shippingMinor: number;
  /**
   * The units a buy-get deal used, bought to qualify or given (discounted): no later buy-get may use them again.
   * Only open units (not claimed before) may be claimed; absent or empty for every other action.
   */
  claims?: readonly UnitClaim[];
}

export type ActionOf<T extends PromotionActionType> = Extract<PromotionAction, { type: T }>;

export interface PromotionActionModule<T extends string = string, F extends KindFields = KindFields>
  extends PromotionKind<T, F> {
  take(action: PricingForm<T, F>, context: ActionContext): ActionTake;
}

/** An action kind's module, its rule's argument typed from its fields. */
export const actionKind = <T extends string, F extends KindFields>(
  module: PromotionActionModule<T, F>,
): PromotionActionModule<T, F> => module;
