import { getTableColumns, type Table } from 'drizzle-orm';

/** A table's columns as [property, column name, column type]: read once per table, not per row. */
export type ColumnList = readonly (readonly [key: string, name: string, type: string])[];

export const columnList = (table: Table): ColumnList =>
  Object.entries(getTableColumns(table)).map(([key, column]) => [key, column.name, column.columnType] as const);

/** The columns an INSERT may name: all but the generated ones (an identity `generated always`, a computed column). */
export const insertableColumnList = (table: Table): ColumnList =>
  Object.entries(getTableColumns(table))
    .filter(([, column]) => !column.generatedIdentity && !column.generated)
    .map(([key, column]) => [key, column.name, column.columnType] as const);

/** A row's values keyed by column name, as jsonb_populate_record reads them. */
export function byColumnName(columns: ColumnList, row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, name] of columns) {
    if (row[key] !== undefined) out[name] = row[key];
  }
  return out;
}

/** A row read as JSON (to_jsonb), keyed back by property, timestamps as dates: what Drizzle's select gives. */
export function fromColumnNames<T>(columns: ColumnList, json: Record<string, unknown>): T {
  const out: Record<string, unknown> = {};
  for (const [key, name, type] of columns) {
    const value = json[name];
    out[key] = type === 'PgTimestamp' && typeof value === 'string' ? new Date(value) : value;
  }
  return out as T;
}

/**
 * SQL of a row of `alias` (a relation with the table's columns) as JSON that `fromColumnNames` reads back as Drizzle
 * gives it: `to_jsonb`, with numeric columns as text (JSON would make them floats, dropping their scale).
 */
export function rowJsonSql(columns: ColumnList, alias: string): string {
  const numeric = columns.filter(([, , type]) => type === 'PgNumeric');
  if (numeric.length === 0) return `to_jsonb(${alias})`;
  const pairs = numeric.map(([, name]) => `'${name}', ${alias}.${name}::text`).join(', ');
  return `(to_jsonb(${alias}) || jsonb_build_object(${pairs}))`;
}
