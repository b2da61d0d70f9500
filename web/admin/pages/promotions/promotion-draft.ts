// A promotion's form as typed, and the body the API takes built from it (the generated types check every branch).
import type { Answer } from '../../../api/client';
import { formReader, idsText, textOrNull } from '../common/form-values';
import type {
  Action,
  ActionField,
  ActionKind,
  Condition,
  ConditionField,
  ConditionKind,
  PromotionBody,
} from './promotion-kinds';

export type Promotion = Answer<'/discount/dashboard/api/promotions/{id}/', 'get'>;

export type ConditionDraft = { type: ConditionKind } & Record<ConditionField, string>;
export type ActionDraft = { type: ActionKind; repeat: boolean } & Record<Exclude<ActionField, 'repeat'>, string>;

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

export const emptyCondition = (type: ConditionKind): ConditionDraft => ({
  type,
  amount: '',
  quantity: '',
  products: '',
});

export const emptyAction = (type: ActionKind): ActionDraft => ({
  type,
  percent: '',
  amount: '',
  products: '',
  max_units: '',
  buy_quantity: '',
  buy_products: '',
  get_quantity: '',
  get_products: '',
  repeat: true,
});

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
  const a = p.action;
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
    conditions: p.conditions.map((c) => ({
      type: c.type,
      amount: 'amount' in c ? c.amount : '',
      quantity: 'quantity' in c ? text(c.quantity) : '',
      products: 'products' in c ? idsText(c.products) : '',
    })),
    action: {
      type: a.type,
      percent: 'percent' in a ? a.percent : '',
      amount: 'amount' in a ? a.amount : '',
      products: 'products' in a ? idsText(a.products) : '',
      max_units: 'max_units' in a ? text(a.max_units) : '',
      buy_quantity: 'buy_quantity' in a ? text(a.buy_quantity) : '',
      buy_products: 'buy_products' in a ? idsText(a.buy_products) : '',
      get_quantity: 'get_quantity' in a ? text(a.get_quantity) : '',
      get_products: 'get_products' in a ? idsText(a.get_products) : '',
      repeat: 'repeat' in a ? a.repeat : true,
    },
  };
}

type Reader = ReturnType<typeof formReader>;

function conditionBody(c: ConditionDraft, at: string, read: Reader): Condition {
  switch (c.type) {
    case 'min_subtotal':
      return { type: c.type, amount: c.amount.trim() };
    case 'min_quantity':
      return {
        type: c.type,
        quantity: read.integer(`${at}.quantity`, c.quantity),
        products: read.idsOrNull(`${at}.products`, c.products),
      };
    case 'contains_products':
      return { type: c.type, products: read.ids(`${at}.products`, c.products) };
  }
}

function actionBody(a: ActionDraft, read: Reader): Action {
  const products = () => read.idsOrNull('action.products', a.products);
  const maxUnits = () => read.integerOrNull('action.max_units', a.max_units);
  switch (a.type) {
    case 'order_percentage':
      return { type: a.type, percent: a.percent.trim(), products: products() };
    case 'order_fixed':
      return { type: a.type, amount: a.amount.trim(), products: products() };
    case 'item_percentage':
      return { type: a.type, percent: a.percent.trim(), products: products(), max_units: maxUnits() };
    case 'item_fixed':
      return { type: a.type, amount: a.amount.trim(), products: products(), max_units: maxUnits() };
    case 'buy_x_get_y':
      return {
        type: a.type,
        buy_quantity: read.integer('action.buy_quantity', a.buy_quantity),
        buy_products: read.idsOrNull('action.buy_products', a.buy_products),
        get_quantity: read.integer('action.get_quantity', a.get_quantity),
        get_products: read.idsOrNull('action.get_products', a.get_products),
        percent: a.percent.trim(),
        repeat: a.repeat,
      };
    case 'shipping_percentage':
      return { type: a.type, percent: a.percent.trim() };
    case 'shipping_fixed':
      return { type: a.type, amount: a.amount.trim() };
    case 'free_shipping':
      return { type: a.type };
  }
}

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
