import { useEffect, useState } from 'preact/hooks';
import { type Answer, ok } from '../api/client';
import { asProblem, type Problem } from '../shared/problem';
import { useShop } from './context';
import { orderTokenHeader } from './order-tokens';
import { paymentMayChange } from './order-words';

export type Order = Answer<'/order/storefront/api/orders/{order_alias}/', 'get'>;

/** How often, and for how long, an order whose payment may still change is asked for again. */
const POLL_MS = 1500;
const FOLLOW_FOR_MS = 120_000;

/**
 * An order as its owner (Bearer token) or the guest who placed it in this browser (its order token) sees it. With
 * `follow`, it is read again every 1.5 s while its payment may still change (a webhook on its way), for two minutes.
 */
export function useOrder(
  alias: string,
  options: { follow: boolean },
): { order?: Order; problem?: Problem; following: boolean } {
  const { api } = useShop();
  const [order, setOrder] = useState<Order>();
  const [problem, setProblem] = useState<Problem>();
  const [following, setFollowing] = useState(options.follow);

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const until = Date.now() + FOLLOW_FOR_MS;
    const read = async () => {
      try {
        const found = await ok(
          api.GET('/order/storefront/api/orders/{order_alias}/', {
            params: { path: { order_alias: alias }, header: orderTokenHeader(alias) },
          }),
        );
        if (stopped) return;
        setOrder(found);
        setProblem(undefined);
        const again = options.follow && paymentMayChange(found) && Date.now() < until;
        setFollowing(again);
        if (again) timer = setTimeout(() => void read(), POLL_MS);
      } catch (err) {
        if (stopped) return;
        setProblem(asProblem(err));
        setFollowing(false);
      }
    };
    void read();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [api, alias, options.follow]);

  return { order, problem, following };
}
