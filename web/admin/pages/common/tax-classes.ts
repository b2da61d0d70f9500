import { type Answer, ok } from '../../../api/client';
import { useDashboard } from '../../context';
import { type Loaded, useLoaded } from '../../use-loaded';

export type TaxClass = Answer<'/tax/dashboard/api/tax-classes/', 'get'>[number];

/** The store's tax classes, for the selects that name one (products, shipping methods, tax rates). */
export function useTaxClasses(): Loaded<TaxClass[]> {
  const { api } = useDashboard();
  return useLoaded(() => ok(api.GET('/tax/dashboard/api/tax-classes/')), 'tax-classes');
}

/** A class's name for tables; null: the text for "no class". */
export function taxClassName(classes: readonly TaxClass[] | undefined, id: number | null, none: string): string {
  if (id === null) return none;
  return classes?.find((c) => c.id === id)?.name ?? `class ${id}`;
}
