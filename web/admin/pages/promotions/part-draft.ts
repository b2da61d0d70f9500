// A condition or an action on the promotion form, whatever its kind: its inputs, its draft as typed, the body the API
// takes built back from it, and a few words for the list, all from the fields its module describes
// (src/pricing/promotions/kind-fields.ts), so a new kind needs nothing here. It imports nothing of the dashboard, so
// test/promotion-kinds.test.ts checks it for every registered kind.
import { type KindField, perCurrencyName, unknownSort } from '../../../../src/pricing/promotions/kind-fields.js';
import type { KindDescription } from '../../../../src/pricing/promotions/registry.js';

export type { KindDescription };

/** A condition or action as typed. */
export interface PartDraft<K extends string = string> {
  type: K;
  /** The text of every field of every kind, by name: changing the kind keeps what was typed in a field both have. */
  text: Record<string, string>;
  /** The checkboxes, likewise. */
  flags: Record<string, boolean>;
  /** A money field's amounts in other currencies (decision 0037), by the field's name: a row per currency as typed. */
  amounts: Record<string, CurrencyAmountRow[]>;
}

/** One currency's amount of a money field as typed. */
export interface CurrencyAmountRow {
  /** Keeps a row's inputs its own when a row above it is removed. */
  key: number;
  currency: string;
  amount: string;
}

let nextKey = 0;
export const currencyAmountRow = (currency: string, amount: string): CurrencyAmountRow => ({
  key: nextKey++,
  currency,
  amount,
});

/** A kind's fields in its module's order, with their names. */
export const fieldsOf = (kind: KindDescription): [string, KindField][] => Object.entries(kind.fields);

function kindOf(kinds: readonly KindDescription[], type: string): KindDescription {
  const kind = kinds.find((k) => k.type === type);
  if (kind === undefined) throw new Error(`no promotion kind ${type}`);
  return kind;
}

/** How the form asks for a field: the attributes of its input (a flag is a checkbox with its label). */
export function fieldInput(field: KindField, currency: string) {
  const text = { label: field.label, ...(field.hint === undefined ? {} : { hint: field.hint }) };
  switch (field.sort) {
    case 'money':
      return { ...text, label: `${field.label} (${currency})`, inputMode: 'decimal', autoComplete: 'off' } as const;
    case 'percent':
      return { ...text, inputMode: 'decimal', autoComplete: 'off' } as const;
    case 'units':
    case 'unitsOrNull':
      return { ...text, type: 'number', min: '1', step: '1' } as const;
    case 'productIds':
    case 'productScope':
      return { ...text, autoComplete: 'off' } as const;
    case 'flag':
      return text;
    default:
      return unknownSort(field);
  }
}

/** A new part of `type`: every field of every kind blank, every flag at its default. */
export function emptyPart<K extends string>(kinds: readonly KindDescription[], type: K): PartDraft<K> {
  const draft: PartDraft<K> = { type, text: {}, flags: {}, amounts: {} };
  for (const [name, field] of kinds.flatMap(fieldsOf)) {
    if (field.sort === 'flag') draft.flags[name] ??= field.default;
    else draft.text[name] ??= '';
    if (field.sort === 'money') draft.amounts[name] ??= [];
  }
  return draft;
}

/** The draft of a part as the API answered it; `idsText` writes a list of ids as the form shows it. */
export function partDraft<K extends string>(
  kinds: readonly KindDescription[],
  part: { type: K },
  idsText: (ids: readonly number[] | null) => string,
): PartDraft<K> {
  const draft = emptyPart(kinds, part.type);
  const values = part as unknown as Record<string, unknown>;
  for (const [name, field] of fieldsOf(kindOf(kinds, part.type))) {
    const value = values[name];
    if (field.sort === 'flag') draft.flags[name] = typeof value === 'boolean' ? value : field.default;
    else if (field.sort === 'productIds' || field.sort === 'productScope') {
      draft.text[name] = idsText((value as number[] | null | undefined) ?? null);
    } else draft.text[name] = value === null || value === undefined ? '' : String(value);
    if (field.sort === 'money') {
      const amounts = (values[perCurrencyName(name)] ?? {}) as Record<string, string>;
      draft.amounts[name] = Object.entries(amounts).map(([currency, amount]) => currencyAmountRow(currency, amount));
    }
  }
  return draft;
}

/** What turns a field's text into the API's value, naming the field when it can't (the form's `formReader`). */
export interface PartReader {
  integer(field: string, text: string): number;
  integerOrNull(field: string, text: string): number | null;
  ids(field: string, text: string): number[];
  idsOrNull(field: string, text: string): number[] | null;
}

/** The body of a part as the API takes it: its kind's fields only, named `<at>.<field>` when refused. */
export function partBody(
  kinds: readonly KindDescription[],
  draft: PartDraft,
  input: { at: string; read: PartReader },
): { type: string } & Record<string, unknown> {
  const { at, read } = input;
  const body: { type: string } & Record<string, unknown> = { type: draft.type };
  for (const [name, field] of fieldsOf(kindOf(kinds, draft.type))) {
    const text = draft.text[name] ?? '';
    const path = `${at}.${name}`;
    switch (field.sort) {
      case 'money': {
        body[name] = text.trim();
        // Rows left blank are dropped; a currency is sent as typed, so the API's error names the row it is about.
        const rows = (draft.amounts[name] ?? []).filter(
          (row) => row.currency.trim() !== '' || row.amount.trim() !== '',
        );
        if (rows.length > 0) {
          body[perCurrencyName(name)] = Object.fromEntries(rows.map((row) => [row.currency.trim(), row.amount.trim()]));
        }
        break;
      }
      case 'percent':
        body[name] = text.trim();
        break;
      case 'units':
        body[name] = read.integer(path, text);
        break;
      case 'unitsOrNull':
        body[name] = read.integerOrNull(path, text);
        break;
      case 'productIds':
        body[name] = read.ids(path, text);
        break;
      case 'productScope':
        body[name] = read.idsOrNull(path, text);
        break;
      case 'flag':
        body[name] = draft.flags[name] ?? field.default;
        break;
      default:
        unknownSort(field);
    }
  }
  return body;
}

/** A part in a few words: "Percent off the order: 10 %", "Amount off shipping: 5.00 USD". Amounts as answered. */
export function partSummary(kinds: readonly KindDescription[], part: { type: string }, currency: string): string {
  const kind = kindOf(kinds, part.type);
  const values = part as unknown as Record<string, unknown>;
  const fields = fieldsOf(kind);
  const percent = fields.find(([, f]) => f.sort === 'percent');
  if (percent) return `${kind.label}: ${String(values[percent[0]])} %`;
  const money = fields.find(([, f]) => f.sort === 'money');
  if (!money) return kind.label;
  const others = Object.entries((values[perCurrencyName(money[0])] ?? {}) as Record<string, string>).map(
    ([code, amount]) => ` / ${amount} ${code}`,
  );
  return `${kind.label}: ${String(values[money[0]])} ${currency}${others.join('')}`;
}
