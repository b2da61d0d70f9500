// How the dashboard writes the API's values for people: dates in the browser's locale, codes as words.

/** A moment (ISO 8601 from the API) in the reader's locale and time zone. */
export function When(props: { iso: string | null | undefined }) {
  if (!props.iso) return <span class="muted">—</span>;
  return <time dateTime={props.iso}>{new Date(props.iso).toLocaleString()}</time>;
}

/** A code as words: `partially_paid` → `partially paid`. */
export function words(code: string): string {
  return code.replaceAll('_', ' ');
}

/** An order alias short enough for a table (the first 8 characters); the full alias is in the link's title. */
export function shortAlias(alias: string): string {
  return alias.slice(0, 8);
}

/** The dates a record has, each named (`requested`, `shipped`…): a list of those set, in the order given. */
export function DateList(props: { dates: readonly (readonly [string, string | null | undefined])[] }) {
  return (
    <ul class="plain">
      {props.dates.map(([what, iso]) =>
        iso ? (
          <li key={what}>
            <small>
              {what} <When iso={iso} />
            </small>
          </li>
        ) : null,
      )}
    </ul>
  );
}
