import type { ComponentChildren } from 'preact';

/**
 * A table of records (orders, returns, shipments) in its scrolling wrapper: a caption for screen readers, a header
 * of `columns` (those named in `numeric` aligned as figures), `children` as its rows. `reflow` stacks each row's
 * cells on a narrow screen (each cell then says its column with `data-label`).
 */
export function RecordTable(props: {
  caption: string;
  columns: readonly string[];
  numeric?: readonly string[];
  reflow?: boolean;
  children: ComponentChildren;
}) {
  return (
    <div class="table-wrap">
      <table class={props.reflow ? 'reflow' : undefined}>
        <caption class="visually-hidden">{props.caption}</caption>
        <thead>
          <tr>
            {props.columns.map((column) => (
              <th key={column} scope="col" class={props.numeric?.includes(column) ? 'num' : undefined}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </div>
  );
}
