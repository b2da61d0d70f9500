import { useCallback, useEffect, useState } from 'preact/hooks';
import { type Answer, ok } from '../api/client';
import { asProblem, type Problem } from '../shared/problem';
import { useShop } from './context';
import { orderTokenHeader } from './order-tokens';

export type OrderReturns = Answer<'/order/storefront/api/orders/{order_alias}/returns/', 'get'>;
export type Return = OrderReturns['items'][number];
export type ReturnableLine = OrderReturns['returnable'][number];
export type ReturnReason = OrderReturns['reasons'][number];

export interface ReturnsState {
  data?: OrderReturns;
  problem?: Problem;
  /** Reads them again (after asking for a return or cancelling one); resolves when shown. */
  reload(): Promise<void>;
}

/**
 * An order's returns, what each line may still return and the reasons offered, as its owner or the guest holding its
 * order token reads them. Read only once something has shipped (`shipped`): nothing else can be returned.
 */
export function useReturns(alias: string, shipped: boolean): ReturnsState {
  const { api } = useShop();
  const [data, setData] = useState<OrderReturns>();
  const [problem, setProblem] = useState<Problem>();
  const read = useCallback(async () => {
    const params = { path: { order_alias: alias }, header: orderTokenHeader(alias) };
    try {
      setData(await ok(api.GET('/order/storefront/api/orders/{order_alias}/returns/', { params })));
      setProblem(undefined);
    } catch (err) {
      setProblem(asProblem(err));
    }
  }, [api, alias]);
  useEffect(() => {
    if (shipped) void read();
  }, [read, shipped]);
  return { data, problem, reload: read };
}
