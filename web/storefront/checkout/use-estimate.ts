import { useEffect, useRef, useState } from 'preact/hooks';
import { type Answer, ok } from '../../api/client';
import { asProblem, type Problem } from '../../shared/problem';
import { useMarketCode, useShop } from '../context';
import type { OrderPayload } from './address';

export type Estimate = Answer<'/order/storefront/api/estimate/', 'post'>;

/** Wait this long after the last change (a keystroke in the address) before asking for new figures. */
const DEBOUNCE_MS = 350;

export interface LiveEstimate {
  /** The figures for the payload as it is now; undefined while they are being worked out or when it failed. */
  estimate: Estimate | undefined;
  problem: Problem | undefined;
  /** Asks again at once (after the total changed under the shopper). */
  refresh(): void;
}

/**
 * The estimate of a payload, asked again (debounced) whenever the payload or the shop's market changes; stale answers
 * are dropped.
 */
export function useEstimate(payload: OrderPayload | undefined): LiveEstimate {
  const { api } = useShop();
  const market = useMarketCode();
  const [estimate, setEstimate] = useState<Estimate>();
  const [problem, setProblem] = useState<Problem>();
  const [round, setRound] = useState(0);
  const latest = useRef(0);
  const key = payload === undefined ? '' : JSON.stringify(payload);

  useEffect(() => {
    const asked = ++latest.current;
    setEstimate(undefined);
    setProblem(undefined);
    if (payload === undefined) return;
    const timer = setTimeout(() => {
      ok(api.POST('/order/storefront/api/estimate/', { body: payload }))
        .then((answer) => {
          if (asked === latest.current) setEstimate(answer);
        })
        .catch((err: unknown) => {
          if (asked === latest.current) setProblem(asProblem(err));
        });
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [api, key, round, market]);

  return { estimate, problem, refresh: () => setRound((r) => r + 1) };
}
