import { useEffect, useId, useState } from 'preact/hooks';
import { type Answer, ok } from '../../api/client';
import type { Api } from '../../api/client';

type Product = Answer<'/product/dashboard/api/products/', 'get'>['items'][number];
interface Suggestion {
  alias: string;
  label: string;
}

/** A variant as the order editor's list offers it: its alias to send, its product, name, SKU, price and stock. */
function suggestion(product: Product, variant: Product['variants'][number], currency: string): Suggestion {
  const sku = variant.sku ? `, SKU ${variant.sku}` : '';
  const stock = variant.track_inventory ? `, ${variant.stock} in stock` : '';
  return {
    alias: variant.alias,
    label: `${product.name} — ${variant.name}${sku}: ${variant.price} ${currency}${stock}`,
  };
}

/**
 * What the order editor's "add" field suggests as the admin types: the active variants of the active products whose
 * name has the text (the dashboard's product search), each offered by its alias. Returns the id of the datalist to
 * give the field (`list`) and the datalist itself.
 */
export function useVariantSuggestions(api: Api, text: string, currency: string) {
  const id = useId();
  const [found, setFound] = useState<Suggestion[]>([]);
  useEffect(() => {
    const q = text.trim();
    if (q.length < 2) {
      setFound([]);
      return;
    }
    let current = true;
    const timer = setTimeout(() => {
      ok(api.GET('/product/dashboard/api/products/', { params: { query: { limit: 10, status: 'active', q } } })).then(
        (page) => {
          if (!current) return;
          const variants = page.items.flatMap((p) =>
            p.variants.filter((v) => !v.archived).map((v) => suggestion(p, v, currency)),
          );
          setFound(variants);
        },
        () => current && setFound([]),
      );
    }, 250);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [api, text, currency]);
  const list = (
    <datalist id={id}>
      {found.map((s) => (
        <option key={s.alias} value={s.alias} label={s.label}>
          {s.label}
        </option>
      ))}
    </datalist>
  );
  return { listId: id, list };
}
