/**
 * The parameters of a promotion kind, described once in its module (`fields`), and every shape they take derived from
 * that description, by the field's sort:
 *
 * | sort         | API (wire)                       | stored (jsonb)     | pricing            | dashboard          |
 * |--------------|----------------------------------|--------------------|--------------------|--------------------|
 * | money        | `"5.00"`, store precision, > 0   | minor units (500)  | `<name>Minor`: 500 | decimal + currency |
 * | percent      | `"12.5"`, above 0 up to 100      | canonical `"12.5"` | the text           | decimal            |
 * | units        | a whole number, at least 1       | the number         | the number         | number             |
 * | unitsOrNull  | absent or null: every unit       | number or null     | number or null     | number, blank null |
 * | productIds   | product ids, each once           | ids                | ids                | ids, commas        |
 * | productScope | absent or null: every product    | ids or null        | `ProductScope`     | ids, blank null    |
 * | flag         | absent: its default              | boolean            | boolean            | checkbox           |
 *
 * Pricing names a field in camelCase (`max_units` → `maxUnits`), money with `Minor` (`amount` → `amountMinor`).
 *
 * A money field is in the store currency; beside it, optionally, the same amount in other currencies (decision 0037):
 * `amounts: {"EUR": "4.00"}` on the wire, `{"EUR": 400}` stored (minor units of each currency, absent when none),
 * `amountsMinor` in pricing. An order in another currency gets the promotion with those amounts, or not at all
 * (`promotion-currency.ts`).
 * Plain data and types: the dashboard imports it too.
 */

/** Product ids a condition or action is narrowed to; null: every product. */
export type ProductScope = readonly number[] | null;

/** What the admin API says of a field, and how the dashboard asks for it. */
interface FieldText {
  /** The dashboard's label ("Amount off each unit"; a money field's gets the currency after it). */
  label: string;
  /** The dashboard's hint under the input. */
  hint?: string;
}

export interface MoneyField extends FieldText {
  sort: 'money';
  /** The API's description, before ": money in the store currency at its exact precision, above 0". */
  description: string;
  example: string;
}

/** The API describes every percentage alike: above 0, up to 100, at most 4 decimals. */
export interface PercentField extends FieldText {
  sort: 'percent';
}

export interface UnitsField extends FieldText {
  sort: 'units';
  description: string;
}

export interface UnitsOrNullField extends FieldText {
  sort: 'unitsOrNull';
  /** What absent or null means, and what a count is, e.g. "Only this many units …; absent or null: every unit". */
  description: string;
  /** The API's description of a count ("At least 1"). */
  countDescription: string;
}

export interface ProductIdsField extends FieldText {
  sort: 'productIds';
  /** The API's description, before "; each once". */
  description: string;
}

export interface ProductScopeField extends FieldText {
  sort: 'productScope';
  /** The API's description, before "; each once" (the ids) and "; absent or null: every product" (the field). */
  description: string;
}

export interface FlagField extends FieldText {
  sort: 'flag';
  description: string;
  default: boolean;
}

export type KindField =
  | MoneyField
  | PercentField
  | UnitsField
  | UnitsOrNullField
  | ProductIdsField
  | ProductScopeField
  | FlagField;

/** A kind's fields by their API name (snake_case), in the order the API documents and the dashboard asks for them. */
export type KindFields = Readonly<Record<string, KindField>>;

const field =
  <F extends KindField>(sort: F['sort']) =>
  (text: Omit<F, 'sort'>): F =>
    ({ sort, ...text }) as F;

export const money = field<MoneyField>('money');
export const percent = field<PercentField>('percent');
export const units = field<UnitsField>('units');
export const unitsOrNull = field<UnitsOrNullField>('unitsOrNull');
export const productIds = field<ProductIdsField>('productIds');
export const productScope = field<ProductScopeField>('productScope');
export const flag = field<FlagField>('flag');

/** The end of a switch over `sort` that has a branch for each: a new sort is a compile error there. */
export function unknownSort(field: never): never {
  throw new Error(`promotion field of unknown sort: ${JSON.stringify(field)}`);
}

/** Fields the API lets a client leave out: stored as null (a flag: as its default). */
export function isOptional(f: KindField): boolean {
  return f.sort === 'unitsOrNull' || f.sort === 'productScope' || f.sort === 'flag';
}

/** Product ids, whatever the field's name: what must exist, and what the dashboard reads as ids. */
export function namesProducts(f: KindField): f is ProductIdsField | ProductScopeField {
  return f.sort === 'productIds' || f.sort === 'productScope';
}

type Simplify<T> = { [K in keyof T]: T[K] } & {};

type Camel<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;

/** The name pricing gives a field: `max_units` → `maxUnits`, money `amount` → `amountMinor`. */
export type PricingName<K extends string, F extends KindField> = F extends MoneyField ? `${Camel<K>}Minor` : Camel<K>;

/** The same at run time. */
export function pricingName(name: string, f: KindField): string {
  const camel = name.replace(/_(.)/g, (_, c: string) => c.toUpperCase());
  return f.sort === 'money' ? `${camel}Minor` : camel;
}

/** The API's and the stored name of a money field's amounts in other currencies: `amount` → `amounts`. */
export function perCurrencyName(name: string): string {
  return `${name}s`;
}

/** Pricing's name of the same: `amount` → `amountsMinor`. */
export function perCurrencyPricingName(name: string): string {
  return `${name.replace(/_(.)/g, (_, c: string) => c.toUpperCase())}sMinor`;
}

/** Amounts by currency (upper-case ISO 4217 codes): minor units of each (stored, pricing), or money strings (wire). */
export type ByCurrency<V> = Readonly<Record<string, V>>;

type PricingValue<F extends KindField> = F extends MoneyField | UnitsField
  ? number
  : F extends PercentField
    ? string
    : F extends UnitsOrNullField
      ? number | null
      : F extends ProductIdsField
        ? readonly number[]
        : F extends ProductScopeField
          ? ProductScope
          : F extends FlagField
            ? boolean
            : never;

type StoredValue<F extends KindField> = F extends MoneyField | UnitsField
  ? number
  : F extends PercentField
    ? string
    : F extends UnitsOrNullField
      ? number | null
      : F extends ProductIdsField
        ? number[]
        : F extends ProductScopeField
          ? number[] | null
          : F extends FlagField
            ? boolean
            : never;

type WireValue<F extends KindField> = F extends MoneyField | PercentField
  ? string
  : F extends UnitsField
    ? number
    : F extends UnitsOrNullField
      ? number | null
      : F extends ProductIdsField
        ? number[]
        : F extends ProductScopeField
          ? number[] | null
          : F extends FlagField
            ? boolean
            : never;

type OptionalNames<F extends KindFields> = {
  [K in keyof F]: F[K] extends UnitsOrNullField | ProductScopeField | FlagField ? K : never;
}[keyof F];

type MoneyNames<F extends KindFields> = { [K in keyof F & string]: F[K] extends MoneyField ? K : never }[keyof F &
  string];

/** A kind as pricing takes it: `{type: 'item_fixed', amountMinor: 150, products: null, maxUnits: 2}`. */
export type PricingForm<T extends string, F extends KindFields> = Simplify<
  { type: T } & { [K in keyof F & string as PricingName<K, F[K]>]: PricingValue<F[K]> } & {
    [K in MoneyNames<F> as `${Camel<K>}sMinor`]?: ByCurrency<number>;
  }
>;

/**
 * A kind as stored in jsonb: the API's names, money in minor units, every field present (null when not set) but a
 * money field's amounts in other currencies (absent: none).
 */
export type StoredForm<T extends string, F extends KindFields> = Simplify<
  { type: T } & { -readonly [K in keyof F]: StoredValue<F[K]> } & {
    -readonly [K in MoneyNames<F> as `${K}s`]?: ByCurrency<number>;
  }
>;

/** A kind as the admin API takes it: money as text, optional fields absent or null. */
export type WireForm<T extends string, F extends KindFields> = Simplify<
  { type: T } & { -readonly [K in Exclude<keyof F, OptionalNames<F>>]: WireValue<F[K]> } & {
    -readonly [K in OptionalNames<F>]?: WireValue<F[K]>;
  } & { -readonly [K in MoneyNames<F> as `${K}s`]?: ByCurrency<string> }
>;
