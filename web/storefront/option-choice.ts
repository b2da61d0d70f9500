// Choosing a variant by its options on the product page: which combination each value would make with the values
// chosen for the other options, and whether it can be bought. Pure: the page and its test use it.

/** What the page needs of a product and its variants (the storefront's answer has these fields). */
export interface OptionProduct {
  options: { name: string; values: string[] }[];
  variants: { id: number; available: boolean; options: Record<string, string> }[];
}

/** A value as the picker shows it, with the combination it makes with the other values chosen. */
export interface ValueChoice {
  value: string;
  /** The variant it makes; undefined when no variant has that combination. */
  variantId: number | undefined;
  state: 'available' | 'sold-out' | 'missing';
}

/**
 * Whether the product is chosen option by option: it has two options or more and each variant a value of every one.
 * With one option, the list of variants (each with its price and stock) says as much; with one option of one value
 * ("Title: Default", a product made without options) there is nothing to choose.
 */
export function choosesByOption(product: OptionProduct): boolean {
  const { options, variants } = product;
  if (options.length < 2 || variants.length === 0) return false;
  return variants.every((v) => options.every((o) => v.options[o.name] !== undefined));
}

/** The legend of the list of variants: the product's only option by name, unless it is the default "Title". */
export function variantListLegend(product: OptionProduct): string {
  const only = product.options.length === 1 ? product.options[0]?.name : undefined;
  return only === undefined || only === 'Title' ? 'Option' : only;
}

/** Whether two combinations agree on every option but `except`. */
const sameExcept = (a: Record<string, string>, b: Record<string, string>, except: string) =>
  Object.keys({ ...a, ...b }).every((name) => name === except || a[name] === b[name]);

/** For each option, its values with the variant each makes together with the other values of `chosen`. */
export function valueChoices(product: OptionProduct, chosenId: number | undefined): Map<string, ValueChoice[]> {
  const chosen = product.variants.find((v) => v.id === chosenId)?.options ?? {};
  const choices = new Map<string, ValueChoice[]>();
  for (const option of product.options) {
    choices.set(
      option.name,
      option.values.map((value) => {
        const variant = product.variants.find(
          (v) => v.options[option.name] === value && sameExcept(v.options, chosen, option.name),
        );
        const state = variant === undefined ? 'missing' : variant.available ? 'available' : 'sold-out';
        return { value, variantId: variant?.id, state };
      }),
    );
  }
  return choices;
}

/**
 * The variant to show when the shopper picks `value` for `option`: the one with the other values kept; when none
 * exists, the one with that value sharing most of the other values, an available one first.
 */
export function variantFor(
  product: OptionProduct,
  pick: { chosenId: number | undefined; option: string; value: string },
): number | undefined {
  const chosen = product.variants.find((v) => v.id === pick.chosenId)?.options ?? {};
  const names = product.options.map((o) => o.name);
  const candidates = product.variants.filter((v) => v.options[pick.option] === pick.value);
  const score = (v: OptionProduct['variants'][number]) =>
    names.filter((n) => v.options[n] === chosen[n]).length * 2 + (v.available ? 1 : 0);
  return candidates.reduce<(typeof candidates)[number] | undefined>(
    (best, v) => (best === undefined || score(v) > score(best) ? v : best),
    undefined,
  )?.id;
}
