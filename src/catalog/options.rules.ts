import { DomainError, type FieldError } from '../shared/errors.js';

// A product's options (Size, Colour) and its variants as combinations of their values: the one home of these rules
// (docs/decisions/0036-product-options.md). Pure: the repository reads the rows and writes what is decided here.

/** Limits of a product's options; Shopify held stores to the same for years. */
export const OPTION_LIMITS = { options: 3, valuesPerOption: 100, combinations: 100, nameLength: 50, valueLength: 200 };

/** The option a product without options of its own has, and the value of its only variant. */
export const DEFAULT_OPTION = 'Title';
export const DEFAULT_VALUE = 'Default';

/** An option with its values, in order. */
export interface OptionList {
  name: string;
  values: string[];
}

/**
 * An option as an admin sets it: with the name it had when this renames it (`renamedFrom`), and the values it renames,
 * each new value with the current one it replaces (`valuesRenamedFrom`). A renamed option or value keeps its variants.
 */
export interface OptionEdit extends OptionList {
  renamedFrom?: string;
  valuesRenamedFrom?: Readonly<Record<string, string>>;
}

/** A variant's value of each option, by option name; a variant made before options (by SQL) may have none. */
export type Combination = Readonly<Record<string, string>>;

/** A variant as these rules see it. */
export interface VariantCombination {
  id: number;
  name: string;
  archived: boolean;
  values: Combination;
}

/** The same text in any case: "Size" and "size" are the same option, "M" and "m" the same value. */
const folded = (text: string) => text.normalize('NFC').toLocaleLowerCase('en');

const validation = (errors: FieldError[]) =>
  new DomainError('validation_error', { detail: errors.map((e) => `${e.field} ${e.message}`).join('; '), errors });

/** Options as the admin sent them, trimmed and checked; every failure a 422 naming its field. */
export function checkOptions(input: readonly OptionEdit[], path = 'options'): OptionEdit[] {
  const errors: FieldError[] = [];
  const limits = OPTION_LIMITS;
  if (input.length === 0) errors.push({ field: path, message: 'must name at least one option' });
  if (input.length > limits.options)
    errors.push({ field: path, message: `may hold at most ${limits.options} options` });
  const names = new Set<string>();
  const options = input.map((option, i) => {
    const name = option.name.trim();
    const at = `${path}[${i}]`;
    if (name === '') errors.push({ field: `${at}.name`, message: 'must not be blank' });
    else if (name.length > limits.nameLength) {
      errors.push({ field: `${at}.name`, message: `must be at most ${limits.nameLength} characters` });
    } else if (names.has(folded(name))) errors.push({ field: `${at}.name`, message: `"${name}" is given twice` });
    names.add(folded(name));
    if (option.values.length === 0) errors.push({ field: `${at}.values`, message: 'must hold at least one value' });
    if (option.values.length > limits.valuesPerOption) {
      errors.push({ field: `${at}.values`, message: `may hold at most ${limits.valuesPerOption} values` });
    }
    const seen = new Set<string>();
    const values = option.values.map((raw, j) => {
      const value = raw.trim();
      const field = `${at}.values[${j}]`;
      if (value === '') errors.push({ field, message: 'must not be blank' });
      else if (value.length > limits.valueLength) {
        errors.push({ field, message: `must be at most ${limits.valueLength} characters` });
      } else if (seen.has(folded(value))) errors.push({ field, message: `"${value}" is given twice` });
      seen.add(folded(value));
      return value;
    });
    const renamedFrom = option.renamedFrom?.trim();
    const valuesRenamedFrom = option.valuesRenamedFrom
      ? Object.fromEntries(Object.entries(option.valuesRenamedFrom).map(([to, from]) => [to.trim(), from.trim()]))
      : undefined;
    return {
      name,
      values,
      ...(renamedFrom ? { renamedFrom } : {}),
      ...(valuesRenamedFrom ? { valuesRenamedFrom } : {}),
    };
  });
  const count = options.reduce((product, option) => product * Math.max(1, option.values.length), 1);
  if (errors.length === 0 && count > limits.combinations) {
    errors.push({
      field: path,
      message: `make ${count} combinations; a product has at most ${limits.combinations}`,
    });
  }
  if (errors.length > 0) throw validation(errors);
  return options;
}

/** Every combination of the options' values, the first option changing slowest (S/Black, S/Grey, M/Black, …). */
export function combinationsOf(options: readonly OptionList[]): Combination[] {
  let combinations: Record<string, string>[] = [{}];
  for (const option of options) {
    combinations = combinations.flatMap((combination) =>
      option.values.map((value) => ({ ...combination, [option.name]: value })),
    );
  }
  return combinations;
}

/** A key that two combinations share exactly when they give every option the same value. */
export function combinationKey(options: readonly OptionList[], combination: Combination): string {
  return JSON.stringify(options.map((o) => combination[o.name] ?? null));
}

/** Whether a combination gives each option one of its values (and names no other option). */
export function isComplete(options: readonly OptionList[], combination: Combination): boolean {
  return (
    Object.keys(combination).length === options.length
    && options.every((o) => o.values.includes(combination[o.name] ?? '\u0000'))
  );
}

/** The name of a variant made for a combination: its values in option order, "S / Black". */
export function variantName(options: readonly OptionList[], combination: Combination): string {
  return options.map((o) => combination[o.name]).join(' / ');
}

/** Combinations of the options that no variant, active or archived, has: what "generate" creates. */
export function missingCombinations(options: readonly OptionList[], variants: readonly VariantCombination[]) {
  const held = new Set(variants.map((v) => combinationKey(options, v.values)));
  return combinationsOf(options).filter((c) => !held.has(combinationKey(options, c)));
}

/** 409 when two active variants share a combination: `variants` names them. */
export function assertDistinct(options: readonly OptionList[], variants: readonly VariantCombination[]): void {
  const byKey = new Map<string, number[]>();
  for (const v of variants) {
    if (v.archived) continue;
    const key = combinationKey(options, v.values);
    byKey.set(key, [...(byKey.get(key) ?? []), v.id]);
  }
  for (const ids of byKey.values()) {
    if (ids.length < 2) continue;
    const first = variants.find((v) => v.id === ids[0]);
    const shared = first ? variantName(options, first.values) : '';
    throw new DomainError('variant_combination_taken', {
      detail: `variants ${ids.join(', ')} would have the same options (${shared})`,
      extra: { variants: ids },
    });
  }
}

/** What changing a product's options does to one variant. */
export interface VariantChange {
  id: number;
  values: Combination;
  /** Its new name, when its combination changed. */
  name?: string;
  /** Archived now: it had a value that is gone. */
  archive: boolean;
}

/** The value a variant's `had` becomes: the one renamed from it, or itself. */
function valueAfterRename(option: OptionEdit, had: string): string {
  const renamed = Object.entries(option.valuesRenamedFrom ?? {}).find(([, from]) => from === had);
  return renamed ? renamed[0] : had;
}

/**
 * Checks the renames of `next` against the product's current options (422 naming the field): an option renames one
 * the product has and no other option keeps or renames; a value renames one of its option's current values that no
 * value given keeps (names may swap), into one of the values given, and no two values rename one.
 */
export function checkRenames(current: readonly OptionList[], next: readonly OptionEdit[], path = 'options'): void {
  const errors: FieldError[] = [];
  const sources = new Map<string, number>();
  next.forEach((option, i) => {
    const at = `${path}[${i}]`;
    const source = option.renamedFrom ?? option.name;
    const taken = sources.get(source);
    if (taken !== undefined) {
      errors.push({ field: `${at}.renamed_from`, message: `"${source}" is ${path}[${taken}]'s already` });
    }
    sources.set(source, i);
    const before = current.find((o) => o.name === source);
    if (option.renamedFrom !== undefined && !before) {
      errors.push({ field: `${at}.renamed_from`, message: `"${source}" names no option of the product` });
    }
    const froms = new Set<string>();
    for (const [to, from] of Object.entries(option.valuesRenamedFrom ?? {})) {
      const field = `${at}.values_renamed_from.${to}`;
      if (!option.values.includes(to)) errors.push({ field, message: `"${to}" is not one of the values given` });
      else if (!before?.values.includes(from)) {
        errors.push({ field, message: `"${from}" is not a value of the option "${source}"` });
      } else if (option.values.includes(from) && option.valuesRenamedFrom?.[from] === undefined) {
        errors.push({ field, message: `"${from}" is kept as a value` });
      } else if (froms.has(from)) errors.push({ field, message: `"${from}" is renamed twice` });
      froms.add(from);
    }
  });
  if (errors.length > 0) throw validation(errors);
}

/**
 * A product's variants under new options, matched by name or by the name they are renamed from (an option or a value
 * not in `next` is removed, one not in the current list is added); a renamed value keeps its variants:
 * - an active variant keeps its values that remain, takes the first value of an option it has no value for (a new
 *   option), and is archived when one of its values is removed (never deleted: orders keep it, like DELETE variant);
 * - an archived variant only loses the values that are removed (restoring it needs a complete combination);
 * - an active variant whose combination changed is named after it ("S / Black");
 * - two active variants left with the same combination refuse the whole change (409 variant_combination_taken).
 */
export function planOptionChange(
  next: readonly OptionEdit[],
  variants: readonly VariantCombination[],
): VariantChange[] {
  const changes = variants.map((variant): VariantChange => {
    const values: Record<string, string> = {};
    const carried: Record<string, string> = {};
    let removed = false;
    for (const option of next) {
      const had = variant.values[option.renamedFrom ?? option.name];
      if (had !== undefined) carried[option.name] = had;
      const now = had === undefined ? undefined : valueAfterRename(option, had);
      if (now !== undefined && option.values.includes(now)) values[option.name] = now;
      else if (had !== undefined) removed = true;
      else if (!variant.archived) values[option.name] = option.values[0] ?? '';
    }
    const archive = !variant.archived && removed;
    const same =
      combinationKey(next, values) === combinationKey(next, carried)
      && Object.keys(values).length === Object.keys(variant.values).length;
    const renamed = !variant.archived && !archive && !same;
    return { id: variant.id, values, archive, ...(renamed ? { name: variantName(next, values) } : {}) };
  });
  assertDistinct(
    next,
    changes.map((c) => {
      const before = variants.find((v) => v.id === c.id);
      return { id: c.id, name: c.name ?? '', archived: c.archive || (before?.archived ?? false), values: c.values };
    }),
  );
  return changes;
}

/**
 * The options of a product made without any (by the product API, or before migration 0032): one option "Title"
 * whose values are the variants' names, a name given twice made distinct with the variant's id ("Black #12"); a
 * single variant has the value "Default". Migration 0030 spells the same rule in SQL.
 */
export function defaultOptions(variants: readonly { id: number; name: string }[]): {
  option: OptionList;
  values: Map<number, string>;
} {
  if (variants.length === 1 && variants[0]) {
    return {
      option: { name: DEFAULT_OPTION, values: [DEFAULT_VALUE] },
      values: new Map([[variants[0].id, DEFAULT_VALUE]]),
    };
  }
  const count = new Map<string, number>();
  for (const v of variants) count.set(v.name, (count.get(v.name) ?? 0) + 1);
  const values = new Map(variants.map((v) => [v.id, (count.get(v.name) ?? 0) > 1 ? `${v.name} #${v.id}` : v.name]));
  return { option: { name: DEFAULT_OPTION, values: [...values.values()] }, values };
}

/**
 * The combination an admin gives a new variant, checked against the product's options: every option named once with
 * one of its values (422 naming `path.<option>` otherwise).
 */
export function checkCombination(options: readonly OptionList[], given: Combination, path = 'options'): Combination {
  const errors: FieldError[] = [];
  const combination: Record<string, string> = {};
  for (const [name, raw] of Object.entries(given)) {
    const option = options.find((o) => o.name === name.trim());
    if (!option) errors.push({ field: `${path}.${name}`, message: 'names no option of the product' });
    else if (!option.values.includes(raw.trim())) {
      errors.push({ field: `${path}.${name}`, message: `"${raw}" is not one of ${option.values.join(', ')}` });
    } else combination[option.name] = raw.trim();
  }
  for (const option of options) {
    if (!Object.keys(given).some((n) => n.trim() === option.name)) {
      errors.push({ field: `${path}.${option.name}`, message: 'is required' });
    }
  }
  if (errors.length > 0) throw validation(errors);
  return combination;
}

const PLACEHOLDER = /\{([^{}]*)\}/g;

/**
 * A generated variant's SKU from a pattern naming options in braces, "HOODIE-{Size}-{Colour}" → "HOODIE-M-BLACK"
 * (values upper-cased, runs of anything but letters and digits one hyphen). An unknown name is a 422.
 */
export function skuFromPattern(pattern: string, options: readonly OptionList[], combination: Combination) {
  const field = 'sku_pattern';
  const sku = pattern.replace(PLACEHOLDER, (_, name: string) => {
    const option = options.find((o) => o.name === name.trim());
    if (!option) throw validationOf(field, `names {${name}}, which is not an option of the product`);
    return (combination[option.name] ?? '')
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toUpperCase()
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-|-$/g, '');
  });
  if (sku.trim() === '' || sku.length > 64)
    throw validationOf(field, `gives "${sku}", not a SKU of 1 to 64 characters`);
  return sku.trim();
}

/** Refuses a pattern naming something that is no option, whether or not a variant is to be made. */
export function checkSkuPattern(pattern: string, options: readonly OptionList[]): void {
  skuFromPattern(pattern, options, Object.fromEntries(options.map((o) => [o.name, o.values[0] ?? ''])));
}

const validationOf = (field: string, message: string) => validation([{ field, message }]);
