import { useLocation } from 'preact-iso';
import { useEffect, useState } from 'preact/hooks';
import { searchHref } from '../search';

/** The header's product search: a labelled search field; submitting shows /search?q=… (the results page). */
export function SearchBox() {
  const { path, query, route } = useLocation();
  const [text, setText] = useState('');
  // On the results page the field shows what was searched (a facet link keeps q).
  useEffect(() => {
    if (path === '/search') setText(query.q ?? '');
  }, [path, query.q]);
  const submit = (event: Event) => {
    event.preventDefault();
    route(searchHref({ q: text.trim() }));
  };
  return (
    <search class="search-box">
      <form action="/search" onSubmit={submit}>
        <label for="site-search" class="visually-hidden">
          Search products
        </label>
        <input
          id="site-search"
          type="search"
          name="q"
          maxLength={200}
          placeholder="Search"
          value={text}
          onInput={(event) => setText(event.currentTarget.value)}
        />
        <button type="submit">Search</button>
      </form>
    </search>
  );
}
