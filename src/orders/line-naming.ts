// How a line of a cart or an order is named: the product, then what tells its variant apart. One rule for the
// answers' `name` (lineDisplayName), the shop and the dashboard (the web apps import this file; it reads nothing but
// its input).

/** What a line of a cart, an estimate or an order says of the variant it sells (the API's fields). */
export interface NamedLine {
  /** The product's name; null on an old line whose product was deleted. */
  product: string | null;
  /** The variant's own name ("Small", "L / Black", or the product's name again). */
  variant: string;
  /** Its option values, in the options' order; empty when the product has no options of its own. */
  options: readonly { name: string; value: string }[];
}

/** A line of an estimate or an order as the API answers it, as `lineNaming` takes it. */
export const soldLine = (line: {
  product_name: string | null;
  variant_name: string;
  options: NamedLine['options'];
}): NamedLine => ({ product: line.product_name, variant: line.variant_name, options: line.options });

/**
 * A line's title and the two small lines that may follow it: the variant's own name, only when it says more than the
 * title and the option values do ("L / Black" beside "Size: L · Colour: Black" says nothing more), and the option
 * values ("Size: L · Colour: Black"), null without options. `name` is the title and the variant's name on one line:
 * "Organic Cotton T-Shirt - Small", or "Pullover Hoodie" when its options say the rest.
 */
export function lineNaming(line: NamedLine): {
  title: string;
  variant: string | null;
  options: string | null;
  name: string;
} {
  const product = line.product?.trim() ?? '';
  const variant = line.variant.trim();
  const options = line.options.length === 0 ? null : line.options.map((o) => `${o.name}: ${o.value}`).join(' · ');
  if (product === '') return { title: variant, variant: null, options, name: variant };
  const restates =
    variant === ''
    || variant.toLowerCase() === product.toLowerCase()
    || (line.options.length > 0 && words(variant) === words(line.options.map((o) => o.value).join(' ')));
  return restates
    ? { title: product, variant: null, options, name: product }
    : { title: product, variant, options, name: `${product} - ${variant}` };
}

/** A name's words, lower case, whatever separates them ("L / Black" and "l, black" are the same words). */
function words(name: string): string {
  return name
    .toLowerCase()
    .split(/[\s/,·|–—-]+/u)
    .filter((w) => w !== '')
    .join(' ');
}
