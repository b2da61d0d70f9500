import { useState } from 'preact/hooks';
import { ok } from '../../../api/client';
import { asProblem, type Problem } from '../../../shared/problem';
import { ErrorMessage, Field } from '../../../shared/ui';
import { useDashboard } from '../../context';

/** Moves the item at `from` to `to` (both in range), the others keeping their order. */
export function moved<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}

/**
 * A collection's products in order, each with Up, Down and Remove, and a search to add more (by name, the admin's
 * product list). Nothing is sent until the collection is saved: the whole list goes as `product_ids`.
 */
export function CollectionProducts(props: {
  ids: number[];
  names: Map<number, string>;
  onChange: (ids: number[], names?: Map<number, string>) => void;
  error: string | undefined;
}) {
  const { api } = useDashboard();
  const { ids, names } = props;
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<{ id: number; name: string }[]>();
  const [problem, setProblem] = useState<Problem>();
  const name = (id: number) => names.get(id) ?? `Product ${id}`;

  const search = async () => {
    setProblem(undefined);
    try {
      const page = await ok(
        api.GET('/product/dashboard/api/products/', { params: { query: { q: query.trim() || undefined, limit: 20 } } }),
      );
      setFound(page.items.map((p) => ({ id: p.id, name: p.name })));
    } catch (err) {
      setProblem(asProblem(err));
    }
  };
  const add = (product: { id: number; name: string }) =>
    props.onChange([...ids, product.id], new Map([...names, [product.id, product.name]]));

  return (
    <fieldset class="panel">
      <legend>Products, in order</legend>
      {ids.length === 0 && <p class="muted">No products yet.</p>}
      <ol class="ordered">
        {ids.map((id, index) => (
          <li key={id}>
            <span class="row">
              <span>{name(id)}</span>
              <button
                type="button"
                class="secondary"
                aria-label={`Move ${name(id)} up`}
                disabled={index === 0}
                onClick={() => props.onChange(moved(ids, index, index - 1))}
              >
                Up
              </button>
              <button
                type="button"
                class="secondary"
                aria-label={`Move ${name(id)} down`}
                disabled={index === ids.length - 1}
                onClick={() => props.onChange(moved(ids, index, index + 1))}
              >
                Down
              </button>
              <button
                type="button"
                class="secondary"
                aria-label={`Remove ${name(id)}`}
                onClick={() => props.onChange(ids.filter((other) => other !== id))}
              >
                Remove
              </button>
            </span>
          </li>
        ))}
      </ol>
      {props.error && <p class="field-error">{props.error}</p>}
      <div class="row filters">
        <Field label="Find a product to add" value={query} onInput={(e) => setQuery(e.currentTarget.value)} />
        <button type="button" class="secondary" onClick={() => void search()}>
          Find
        </button>
      </div>
      <ErrorMessage problem={problem} />
      {found?.length === 0 && <p class="muted">No product has that name.</p>}
      {found && found.length > 0 && (
        <ul class="plain">
          {found.map((product) => (
            <li key={product.id} class="row">
              <span>{product.name}</span>
              <button
                type="button"
                class="secondary"
                aria-label={`Add ${product.name}`}
                disabled={ids.includes(product.id)}
                onClick={() => add(product)}
              >
                {ids.includes(product.id) ? 'Added' : 'Add'}
              </button>
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}
