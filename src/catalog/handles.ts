/**
 * Handles: the URL names of products, categories and collections (`linen-shirt`). The one statement of what a handle
 * is and how one is made from a name. Pure. Migration 0029 makes the handles of the products that existed before it
 * with the same steps in SQL (test/migrations.test.ts checks that both agree).
 */

/** Longest handle, in characters. */
export const HANDLE_MAX_LENGTH = 100;

/** Lower-case letters and digits in words joined by single hyphens: `linen-shirt-2`. */
export const HANDLE_PATTERN = '^[a-z0-9]+(-[a-z0-9]+)*$';
const HANDLE = new RegExp(HANDLE_PATTERN);

/** Whether `text` is a handle as stored. */
export function isHandle(text: string): boolean {
  return text.length <= HANDLE_MAX_LENGTH && HANDLE.test(text);
}

/**
 * Latin letters that Unicode does not decompose into a base letter and a mark, written as ASCII. Both cases: the
 * database's lower() depends on its locale, so the migration maps them before lower-casing, and so does this.
 */
const TRANSLITERATION: ReadonlyArray<readonly [string, string]> = [
  ['ß', 'ss'],
  ['Æ', 'AE'],
  ['æ', 'ae'],
  ['Œ', 'OE'],
  ['œ', 'oe'],
  ['Ø', 'O'],
  ['ø', 'o'],
  ['Đ', 'D'],
  ['đ', 'd'],
  ['Ł', 'L'],
  ['ł', 'l'],
  ['Þ', 'TH'],
  ['þ', 'th'],
  ['Ð', 'D'],
  ['ð', 'd'],
];

/** Combining diacritical marks (U+0300–U+036F), what NFKD splits off `é`, `ñ`, `ü`. */
const MARKS = /[\u0300-\u036f]/g;
const NOT_HANDLE_CHARACTERS = /[^a-z0-9]+/g;

/**
 * The handle a name suggests: compatibility-decomposed (NFKD: `ﬁ` → `fi`, `é` → `e` + mark), marks dropped, a few
 * Latin letters spelled in ASCII, lower-cased, every run of anything else one hyphen, cut to the longest handle.
 * Empty when nothing of the name is Latin letters or digits (`Чай`, `茶`): the caller chooses a fallback.
 */
export function slugify(name: string): string {
  let text = name.normalize('NFKD').replace(MARKS, '');
  for (const [from, to] of TRANSLITERATION) text = text.replaceAll(from, to);
  const words = text.toLowerCase().replace(NOT_HANDLE_CHARACTERS, '-');
  return trimHyphens(trimHyphens(words).slice(0, HANDLE_MAX_LENGTH));
}

function trimHyphens(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text[start] === '-') start += 1;
  while (end > start && text[end - 1] === '-') end -= 1;
  return text.slice(start, end);
}

/** The handle a name gives, or `fallback` when the name gives none. */
export function handleFromName(name: string, fallback: string): string {
  return slugify(name) || fallback;
}

/**
 * `base` when no one has it, else `base-2`, `base-3`, … the first free one (the base shortened when the suffix would
 * make it too long). `taken` holds the handles in use that could clash: `base` and those starting with `base-`.
 */
export function uniqueHandle(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n += 1) {
    const suffix = `-${n}`;
    const candidate = `${trimHyphens(base.slice(0, HANDLE_MAX_LENGTH - suffix.length))}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** The handles names give, one after another, each unique among those before it and `taken` (a migration's order). */
export function handlesInOrder(names: readonly string[], fallback: string, taken: Iterable<string> = []): string[] {
  const used = new Set(taken);
  return names.map((name) => {
    const handle = uniqueHandle(handleFromName(name, fallback), used);
    used.add(handle);
    return handle;
  });
}
