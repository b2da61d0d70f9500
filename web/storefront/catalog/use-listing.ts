import { useEffect, useRef, useState } from 'preact/hooks';
import { asProblem, type Problem } from '../../shared/problem';

/** A page of a category or collection: its own fields, and a page of its products. */
interface Listing {
  products: { items: unknown[]; next_cursor: string | null };
}

type Item<L extends Listing> = L['products']['items'][number];

/**
 * A category's or collection's page, read by handle and again in another market (`key` changes); "Next page" adds the
 * next products under those shown. A late answer to a load that was replaced is dropped.
 */
export function useListing<L extends Listing>(
  read: (cursor: string | undefined) => Promise<L>,
  key: string,
): { listing?: L; products: Item<L>[]; problem?: Problem; next: (cursor: string) => void } {
  const [listing, setListing] = useState<L>();
  const [products, setProducts] = useState<Item<L>[]>([]);
  const [problem, setProblem] = useState<Problem>();
  const loads = useRef(0);

  const load = (cursor: string | undefined) => {
    const mine = loads.current;
    read(cursor)
      .then((found) => {
        if (mine !== loads.current) return;
        setListing(found);
        setProducts((before) => [...(cursor ? before : []), ...found.products.items]);
      })
      .catch((err: unknown) => {
        if (mine === loads.current) setProblem(asProblem(err));
      });
  };

  useEffect(() => {
    loads.current += 1;
    setListing(undefined);
    setProducts([]);
    setProblem(undefined);
    load(undefined);
  }, [key]);

  return { listing, products, problem, next: load };
}
