// Every condition kind and action kind, as the registry lists them (src/pricing/promotions/registry.ts): their names,
// their fields and how the form asks for them come from their modules. The API's types are the generated ones; a kind
// the registry has and the generated client lacks (or the reverse) fails the type check: run `npm run client:generate`.
import type { RequestBody } from '../../../api/client';
import type {
  PromotionActionType,
  PromotionConditionType,
} from '../../../../src/pricing/promotions/promotion.types.js';
import { actionKinds, conditionKinds } from '../../../../src/pricing/promotions/registry.js';

export type PromotionBody = RequestBody<'/discount/dashboard/api/promotions/', 'post'>;
export type Action = PromotionBody['action'];
export type Condition = NonNullable<PromotionBody['conditions']>[number];
export type ActionKind = Action['type'];
export type ConditionKind = Condition['type'];

/** The generated client's kinds are the registry's. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const kindsAgree: [Same<ActionKind, PromotionActionType>, Same<ConditionKind, PromotionConditionType>] = [
  true,
  true,
];

export { actionKinds, conditionKinds };
