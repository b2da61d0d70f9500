// A promotion's form as typed, and the body the API takes built from it. Its conditions and action are drafted field
// by field as their kinds' modules describe them (part-draft.ts).
import type { Answer } from '../../../api/client';
import { formReader, idsText, textOrNull } from '../common/form-values';
import { emptyPart, type PartDraft, partBody, partDraft } from './part-draft';
import {
  type Action,
  type ActionKind,
  actionKinds,
  type Condition,
  type ConditionKind,
  conditionKinds,
  type PromotionBody,
} from './promotion-kinds';

export type Promotion = Answer<'/discount/dashboard/api/promotions/{id}/', 'get'>;

export type ConditionDraft = PartDraft<ConditionKind>;
export type ActionDraft = PartDraft<ActionKind>;

export interface PromotionDraft {
  name: string;
  code: string;
  is_active: boolean;
  /** `<input type="datetime-local">` text, the browser's time zone; blank: no bound. */
  starts_at: string;
  expires_at: string;
  priority: string;
  combinable: boolean;
  redemption_limit: string;
  usage_limit_per_customer: string;
  new_customers_only: boolean;
  specific_customers: string;
  conditions: ConditionDraft[];
  action: ActionDraft;
}

export const emptyCondition = (type: ConditionKind): ConditionDraft => emptyPart(conditionKinds, type);

export const emptyAction = (type: ActionKind): ActionDraft => emptyPart(actionKinds, type);

export const emptyPromotion: PromotionDraft = {
  name: '',
  code: '',
  is_active: true,
  starts_at: '',
  expires_at: '',
  priority: '0',
  combinable: true,
  redemption_limit: '',
  usage_limit_per_customer: '',
  new_customers_only: false,
  specific_customers: '',
  conditions: [],
  action: emptyAction('order_percentage'),
};

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as `datetime-local` text in the browser's time zone (to the minute). */
export function localDateTime(iso: string | null): string {
  if (iso === null) return '';
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

const text = (value: string | number | null | undefined) =>
  value === null || value === undefined ? '' : String(value);

/** The form of a stored promotion. */
export function promotionDraft(p: Promotion): PromotionDraft {
  return {
    name: p.name,
    code: p.code ?? '',
    is_active: p.is_active,
    starts_at: localDateTime(p.starts_at),
    expires_at: localDateTime(p.expires_at),
    priority: String(p.priority),
    combinable: p.combinable,
    redemption_limit: text(p.redemption_limit),
    usage_limit_per_customer: text(p.usage_limit_per_customer),
    new_customers_only: p.new_customers_only,
    specific_customers: idsText(p.specific_customers),
    conditions: p.conditions.map((c) => partDraft(conditionKinds, c, idsText)),
    action: partDraft(actionKinds, p.action, idsText),
  };
}

type Reader = ReturnType<typeof formReader>;

// The generated types name every kind's fields; the parts are built from the registry's description of the same kinds
// (promotion-kinds.ts checks both name the same kinds; test/promotion-kinds.test.ts that the API takes the bodies).
const conditionBody = (c: ConditionDraft, at: string, read: Reader) =>
  partBody(conditionKinds, c, { at, read }) as Condition;
const actionBody = (a: ActionDraft, read: Reader) => partBody(actionKinds, a, { at: 'action', read }) as Action;

/**
 * A bound of the window as the API takes it. Unchanged on the form, the stored instant goes back as it was (the form
 * shows minutes; the API may hold seconds).
 */
function instant(
  bound: { field: 'starts_at' | 'expires_at'; local: string; stored: string | null },
  read: Reader,
): string | null {
  const { field, local, stored } = bound;
  if (local.trim() === '') return null;
  if (stored !== null && localDateTime(stored) === local) return stored;
  const date = new Date(local);
  if (Number.isNaN(date.getTime())) {
    read.fail(field, 'is not a date and time');
    return null;
  }
  return date.toISOString();
}

/**
 * The body for a new promotion, or the whole of a stored one (`stored`) as changed: every field is sent, so a PATCH
 * leaves nothing behind. Throws FormErrors for what can't be sent as typed; the API checks the rest.
 */
export function promotionBody(draft: PromotionDraft, stored?: Promotion): PromotionBody {
  const read = formReader();
  const body: PromotionBody = {
    name: draft.name,
    code: textOrNull(draft.code),
    is_active: draft.is_active,
    starts_at: instant({ field: 'starts_at', local: draft.starts_at, stored: stored?.starts_at ?? null }, read),
    expires_at: instant({ field: 'expires_at', local: draft.expires_at, stored: stored?.expires_at ?? null }, read),
    priority: read.integerOrNull('priority', draft.priority) ?? 0,
    combinable: draft.combinable,
    redemption_limit: read.integerOrNull('redemption_limit', draft.redemption_limit),
    usage_limit_per_customer: read.integerOrNull('usage_limit_per_customer', draft.usage_limit_per_customer),
    new_customers_only: draft.new_customers_only,
    specific_customers: read.idsOrNull('specific_customers', draft.specific_customers),
    conditions: draft.conditions.map((c, i) => conditionBody(c, `conditions[${i}]`, read)),
    action: actionBody(draft.action, read),
  };
  read.done();
  return body;
}
