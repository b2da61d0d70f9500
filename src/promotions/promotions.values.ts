import type { Static } from 'typebox';
import type { StoredPromotionAction, StoredPromotionCondition } from '../db/schema.js';
import { amountIn, otherCurrency } from '../markets/currency-amounts.js';
import {
  isOptional,
  type KindField,
  namesProducts,
  perCurrencyName,
  unknownSort,
} from '../pricing/promotions/kind-fields.js';
import { actionKindOf, conditionKindOf, type KindDescription } from '../pricing/promotions/registry.js';
import { DomainError, type FieldError } from '../shared/errors.js';
import { type CurrencyFormat, compareDecimal, formatDecimal, MoneyFormatError } from '../shared/money.js';
import type { PromotionRow, PromotionValues } from './promotions.repository.js';
import type { PromotionInput, PromotionPatch } from './promotions.schema.js';

// What the admin sends, checked beyond its schema and turned into the stored form: every rule a promotion's fields obey
// that JSON Schema cannot say (percent range, money precision, dates in order), each failure a 422 naming its field.

/** numeric(7,4) like tax rates: three whole digits and four decimals. */
const PERCENT = /^\d{1,3}(\.\d{1,4})?$/;

/** Field errors gathered over a whole request, so one answer names every mistake. */
export class FieldErrors {
  readonly list: FieldError[] = [];

  add(field: string, message: string): void {
    this.list.push({ field, message });
  }

  /** A 422 validation_error naming every field, if any was refused. */
  throwIfAny(): void {
    if (this.list.length === 0) return;
    throw new DomainError('validation_error', {
      detail: this.list.map((e) => `${e.field} ${e.message}`).join('; '),
      errors: this.list,
    });
  }
}

/** A percentage as stored (canonical, `"12.50"` → `"12.5"`), or why it is refused. */
export function checkedPercent(text: string): { value: string } | { message: string } {
  if (!PERCENT.test(text) || compareDecimal(text, '0') <= 0 || compareDecimal(text, '100') > 0) {
    return {
      message: 'must be a percentage above 0 and up to 100 with at most 4 decimals, written as a string like "12.5"',
    };
  }
  return { value: formatDecimal(text) };
}

/** An amount above 0 at the store currency's exact precision, in minor units, or why it is refused. */
export function checkedAmount(text: string, money: CurrencyFormat): { value: number } | { message: string } {
  try {
    const minor = money.parse(text);
    return minor > 0 ? { value: minor } : { message: 'must be more than 0' };
  } catch (err) {
    if (!(err instanceof MoneyFormatError)) throw err;
    return { message: `${err.message} (${money.currency})` };
  }
}

function timestamp(field: string, text: string | null | undefined, errors: FieldErrors): Date | null | undefined {
  if (text === undefined || text === null) return text;
  const date = new Date(text);
  // The date-time format lets leap seconds through; a JavaScript Date does not take them.
  if (Number.isNaN(date.getTime())) errors.add(field, 'is not a date-time this service can store');
  return date;
}

/**
 * `starts_at` and `expires_at` as sent (undefined: unchanged, null: cleared), checked on the window as it will be:
 * a change to one end is compared with the stored other end.
 */
export function checkedWindow(
  body: { starts_at?: string | null; expires_at?: string | null },
  current: { startsAt: Date | null; expiresAt: Date | null } | null,
  errors: FieldErrors,
): { startsAt: Date | null | undefined; expiresAt: Date | null | undefined } {
  const startsAt = timestamp('starts_at', body.starts_at, errors);
  const expiresAt = timestamp('expires_at', body.expires_at, errors);
  const starts = startsAt === undefined ? (current?.startsAt ?? null) : startsAt;
  const expires = expiresAt === undefined ? (current?.expiresAt ?? null) : expiresAt;
  if (starts && expires && starts.getTime() >= expires.getTime()) {
    errors.add('expires_at', `must be after starts_at (${starts.toISOString()})`);
  }
  return { startsAt, expiresAt };
}

/**
 * A money field's amounts in other currencies (decision 0037): each key an ISO 4217 currency other than the store's,
 * each amount above 0 at its currency's exact precision; stored in minor units, upper-case keys. What is wrong is added
 * to `errors`, named `<field>.<key>`. Undefined when none is given (nothing stored). The promotions API and the
 * promo-codes API check them here.
 */
export function checkedAmounts(
  input: { field: string; sent: Readonly<Record<string, string>> | undefined; money: CurrencyFormat },
  errors: FieldErrors,
): Record<string, number> | undefined {
  const { field, sent, money } = input;
  if (sent === undefined) return undefined;
  const stored: Record<string, number> = {};
  for (const [key, text] of Object.entries(sent)) {
    const currency = otherCurrency(key, money.currency);
    if ('message' in currency) {
      errors.add(`${field}.${key}`, currency.message);
      continue;
    }
    if (currency.value in stored) {
      errors.add(`${field}.${key}`, 'is listed twice');
      continue;
    }
    const checked = amountIn(text, currency.value, { positive: true });
    if ('message' in checked) errors.add(`${field}.${key}`, checked.message);
    else stored[currency.value] = checked.value;
  }
  return Object.keys(stored).length > 0 ? stored : undefined;
}

/** Checks amounts and percentages of one part, by field, adding what is wrong to `errors`. */
function partChecker(money: CurrencyFormat, errors: FieldErrors) {
  return {
    percent(field: string, text: string): string {
      const checked = checkedPercent(text);
      if ('message' in checked) errors.add(field, checked.message);
      return 'value' in checked ? checked.value : text;
    },
    amount(field: string, text: string): number {
      const checked = checkedAmount(text, money);
      if ('message' in checked) errors.add(field, checked.message);
      return 'value' in checked ? checked.value : 0;
    },
    amounts(field: string, sent: Readonly<Record<string, string>> | undefined): Record<string, number> | undefined {
      return checkedAmounts({ field, sent, money }, errors);
    },
  };
}
type Checker = ReturnType<typeof partChecker>;

/** A field's value as stored: money in minor units, a percentage canonical, an absent optional one null. */
function storedValue(field: KindField, value: unknown, input: { at: string; check: Checker }): unknown {
  switch (field.sort) {
    case 'money':
      return input.check.amount(input.at, value as string);
    case 'percent':
      return input.check.percent(input.at, value as string);
    case 'flag':
      return value ?? field.default;
    case 'units':
    case 'unitsOrNull':
    case 'productIds':
    case 'productScope':
      return isOptional(field) ? (value ?? null) : value;
    default:
      return unknownSort(field);
  }
}

/**
 * A condition or action as sent, as stored: each field of its kind (the schema let only known kinds and their own
 * fields through), checked beyond the schema and named `<at>.<field>` when refused.
 */
function storedPart<T extends StoredPromotionCondition | StoredPromotionAction>(
  part: { type: string },
  input: { kind: KindDescription | undefined; at: string; check: Checker },
): T {
  if (input.kind === undefined) throw new Error(`promotion part of unknown type ${part.type} got past the schema`);
  const sent = part as Record<string, unknown>;
  const stored: Record<string, unknown> = { type: part.type };
  for (const [name, field] of Object.entries(input.kind.fields)) {
    stored[name] = storedValue(field, sent[name], { at: `${input.at}.${name}`, check: input.check });
    if (field.sort !== 'money') continue;
    const other = perCurrencyName(name);
    const amounts = input.check.amounts(
      `${input.at}.${other}`,
      sent[other] as Readonly<Record<string, string>> | undefined,
    );
    if (amounts !== undefined) stored[other] = amounts;
  }
  return stored as T;
}

/** The product ids a promotion's conditions and action name, by the field that names them (`action.products`). */
export function productReferences(
  values: Pick<Partial<PromotionValues>, 'conditions' | 'action'>,
): { field: string; ids: readonly number[] }[] {
  const references: { field: string; ids: readonly number[] }[] = [];
  const add = (part: { type: string }, input: { kind: KindDescription | undefined; at: string }) => {
    for (const [name, field] of Object.entries(input.kind?.fields ?? {})) {
      const ids = (part as Record<string, unknown>)[name];
      if (namesProducts(field) && Array.isArray(ids)) references.push({ field: `${input.at}.${name}`, ids });
    }
  };
  values.conditions?.forEach((c, i) => {
    add(c, { kind: conditionKindOf(c.type), at: `conditions[${i}]` });
  });
  if (values.action) add(values.action, { kind: actionKindOf(values.action.type), at: 'action' });
  return references;
}

/**
 * Column values for a new promotion (`current` null) or a change to `current`, every rule checked on the promotion
 * as it will be. Absent fields stay absent; null clears a nullable one; `conditions` and `action` are replaced whole.
 * That product and user ids exist is the repository's check (it needs the database).
 */
export function promotionValues(
  body: Static<typeof PromotionPatch>,
  current: PromotionRow | null,
  money: CurrencyFormat,
): Partial<PromotionValues> {
  const errors = new FieldErrors();
  const check = partChecker(money, errors);
  const name = body.name?.trim();
  if (name === '') errors.add('name', 'must not be blank');
  const window = checkedWindow(body, current, errors);
  const conditions = body.conditions?.map((c, i) =>
    storedPart<StoredPromotionCondition>(c, { kind: conditionKindOf(c.type), at: `conditions[${i}]`, check }),
  );
  const action = body.action
    ? storedPart<StoredPromotionAction>(body.action, { kind: actionKindOf(body.action.type), at: 'action', check })
    : undefined;
  errors.throwIfAny();
  const values: Partial<PromotionValues> = {
    name,
    code: body.code === undefined || body.code === null ? body.code : body.code.toUpperCase(),
    isActive: body.is_active,
    ...window,
    priority: body.priority,
    combinable: body.combinable,
    redemptionLimit: body.redemption_limit,
    usageLimitPerCustomer: body.usage_limit_per_customer,
    newCustomersOnly: body.new_customers_only,
    // Empty or null both mean anyone; null is the one way it is stored.
    specificCustomers: body.specific_customers?.length === 0 ? null : body.specific_customers,
    conditions,
    action,
  };
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}

export function newPromotionValues(body: Static<typeof PromotionInput>, money: CurrencyFormat): PromotionValues {
  const { name, action, ...values } = promotionValues(body, null, money);
  // A new promotion always gets both from promotionValues (the schema requires them), or a 422 saying why not.
  if (name === undefined || action === undefined) throw new Error('promotion name or action left unset');
  return { conditions: [], ...values, name, action };
}
