import { useEffect, useState } from 'preact/hooks';
import { type Answer, ok } from '../../../api/client';
import { asProblem, type Problem } from '../../../shared/problem';
import { useDashboard } from '../../context';

export type TaxClass = Answer<'/tax/dashboard/api/tax-classes/', 'get'>[number];

/** The store's tax classes, for the selects that name one (products, shipping methods, tax rates). */
export function useTaxClasses(): { classes: TaxClass[] | undefined; problem: Problem | undefined } {
  const { api } = useDashboard();
  const [classes, setClasses] = useState<TaxClass[]>();
  const [problem, setProblem] = useState<Problem>();
  useEffect(() => {
    ok(api.GET('/tax/dashboard/api/tax-classes/'))
      .then(setClasses)
      .catch((err: unknown) => setProblem(asProblem(err)));
  }, [api]);
  return { classes, problem };
}

/** A class's name for tables; null: the text for "no class". */
export function taxClassName(classes: readonly TaxClass[] | undefined, id: number | null, none: string): string {
  if (id === null) return none;
  return classes?.find((c) => c.id === id)?.name ?? `class ${id}`;
}
