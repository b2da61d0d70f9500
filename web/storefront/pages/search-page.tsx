import { useLocation } from 'preact-iso';
import { useEffect, useState } from 'preact/hooks';
import { type Answer, ok } from '../../api/client';
import { asProblem, type Problem } from '../../shared/problem';
import { ErrorMessage, Pager } from '../../shared/ui';
import { setPageMeta } from '../catalog/page-meta';
import { ProductGrid } from '../components/product-card';
import { useMarketCode, useShop } from '../context';
import {
  hasOption,
  optionFilter,
  type SearchFilters,
  searchFiltersOf,
  searchHref,
  toggledOption,
  withFilter,
} from '../search';

type Found = Answer<'/product/storefront/api/search/', 'get'>;
type Facets = Found['facets'];

/** A facet value: a link that applies it (or, when applied, takes it off), with its count. */
function FacetLink(props: {
  filters: SearchFilters;
  change: SearchFilters;
  applied: boolean;
  label: string;
  count: number;
  /** Where the link goes: by default the filters with `change` applied, or taken off when applied. */
  to?: SearchFilters;
}) {
  const { filters, change, applied, label, count } = props;
  const off = Object.fromEntries(Object.keys(change).map((k) => [k, undefined])) as SearchFilters;
  const to = props.to ?? withFilter(filters, applied ? off : change);
  return (
    <a href={searchHref(to)} aria-current={applied ? 'true' : undefined}>
      <span aria-hidden="true">{applied ? '☑' : '☐'}</span> {label} <span class="muted">({count})</span>
    </a>
  );
}

/** The filters, with their counts; on a phone behind a "Filters" button, so the products come first. */
function FacetFilters(props: { facets: Facets; filters: SearchFilters; currency: string }) {
  const { facets, filters, currency } = props;
  const [open, setOpen] = useState(false);
  return (
    <aside class="facets" aria-label="Filters">
      <button
        type="button"
        class="secondary nav-toggle"
        aria-expanded={open}
        aria-controls="search-filters"
        onClick={() => setOpen(!open)}
      >
        Filters
      </button>
      <div id="search-filters" class={open ? 'nav-tree open' : 'nav-tree'}>
        {facets.categories.length > 0 && (
          <section>
            <h2>Category</h2>
            <ul class="plain">
              {facets.categories.map((c) => (
                <li key={c.id} style={{ paddingLeft: `${c.depth}rem` }}>
                  <FacetLink
                    filters={filters}
                    change={{ category: c.handle }}
                    applied={filters.category === c.handle}
                    label={c.name}
                    count={c.count}
                  />
                </li>
              ))}
            </ul>
          </section>
        )}
        {facets.price.length > 0 && (
          <section>
            <h2>Price ({currency})</h2>
            <ul class="plain">
              {facets.price.map((p) => (
                <li key={p.min}>
                  <FacetLink
                    filters={filters}
                    change={{ price_min: p.min, price_max: p.max ?? undefined }}
                    applied={filters.price_min === p.min && filters.price_max === (p.max ?? undefined)}
                    label={p.max === null ? `${p.min} and more` : `${p.min} to under ${p.max}`}
                    count={p.count}
                  />
                </li>
              ))}
            </ul>
          </section>
        )}
        {facets.options.map((option) => (
          <section key={option.name}>
            <h2>{option.name}</h2>
            <ul class="plain">
              {option.values.map((v) => {
                const filter = optionFilter(option.name, v.value);
                return (
                  <li key={v.value}>
                    <FacetLink
                      filters={filters}
                      change={{}}
                      to={toggledOption(filters, filter)}
                      applied={hasOption(filters, filter)}
                      label={v.value}
                      count={v.count}
                    />
                  </li>
                );
              })}
            </ul>
          </section>
        ))}
        <section>
          <h2>Availability</h2>
          <FacetLink
            filters={filters}
            change={{ in_stock: 'true' }}
            applied={filters.in_stock === 'true'}
            label="In stock"
            count={facets.availability.in_stock}
          />
        </section>
      </div>
    </aside>
  );
}

/**
 * /search?q=…: the products found, best first, with filters by category, price, option values and stock, and their
 * counts.
 */
export function SearchPage() {
  const { api, currency } = useShop();
  const market = useMarketCode();
  const { query, url } = useLocation();
  const filters = searchFiltersOf(query, new URL(url, 'http://shop.invalid').searchParams.getAll('option'));
  const key = searchHref(filters);
  const [found, setFound] = useState<Found>();
  const [items, setItems] = useState<Found['items']>([]);
  const [problem, setProblem] = useState<Problem>();

  const load = (cursor?: string) =>
    ok(
      api.GET('/product/storefront/api/search/', {
        params: {
          query: {
            ...filters,
            q: filters.q ?? '',
            in_stock: filters.in_stock === 'true' || undefined,
            limit: 24,
            cursor,
          },
        },
      }),
    )
      .then((answer) => {
        setProblem(undefined);
        setFound(answer);
        setItems((before) => [...(cursor ? before : []), ...answer.items]);
      })
      .catch((err: unknown) => setProblem(asProblem(err)));

  // Read again when the query, a filter or the market changes.
  useEffect(() => {
    setFound(undefined);
    void load();
  }, [key, market]);

  const heading = filters.q ? `Search: ${filters.q}` : 'Search';
  useEffect(() => setPageMeta({ title: heading, description: '' }), [heading]);

  const shownCurrency = found?.currency ?? currency;
  return (
    <>
      <h1>{heading}</h1>
      <ErrorMessage problem={problem} />
      {found === undefined && problem === undefined && <p>Searching…</p>}
      {found && (
        <p role="status">
          {found.total === 1 ? '1 product' : `${found.total} products`}
          {Object.keys(filters).some((k) => k !== 'q') && (
            <>
              {' · '}
              <a href={searchHref({ q: filters.q })}>Clear filters</a>
            </>
          )}
        </p>
      )}
      <div class="search-layout">
        {found && <FacetFilters facets={found.facets} filters={filters} currency={shownCurrency} />}
        <div>
          {found?.total === 0 && <p>No products match. Try other words, or fewer filters.</p>}
          <ProductGrid products={items} storeCurrency={currency} />
          <Pager nextCursor={found?.next_cursor} onNext={(cursor) => void load(cursor)} />
        </div>
      </div>
    </>
  );
}
