/**
 * The order of a list once `id` stands at `position` in it (0 first; past the end: last), the others keeping theirs:
 * a category among its siblings, a product in a collection, an image among its product's. `ids` is the order before,
 * with or without `id`.
 */
export function placeAt(ids: readonly number[], id: number, position: number): number[] {
  const others = ids.filter((other) => other !== id);
  const at = Math.max(0, Math.min(position, others.length));
  return [...others.slice(0, at), id, ...others.slice(at)];
}
