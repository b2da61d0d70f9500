import { useCallback, useEffect, useState } from 'preact/hooks';
import { type Answer, ok } from '../api/client';
import { asProblem, type Problem } from '../shared/problem';
import { useShop } from './context';
import { orderTokenHeader } from './order-tokens';
import { awaitsGateway, type PaymentStep, paymentStep } from './payment-step';

export type Order = Answer<'/order/storefront/api/orders/{order_alias}/', 'get'>;
export type Payment = Answer<'/payment/storefront/api/orders/{order_alias}/payments/', 'get'>[number];
export type PaymentPlugin = Answer<'/payment/storefront/api/plugins/', 'get'>[number];

/** How often, and for how long at a time, an order whose gateway may still report is asked for again. */
const POLL_MS = 1500;
const FOLLOW_FOR_MS = 120_000;

export interface OrderState {
  order?: Order;
  payments?: Payment[];
  /** The store's payment methods (empty while unknown, or when they could not be read). */
  plugins: PaymentPlugin[];
  /** What the page says and offers about paying (once the order and its payments are read). */
  step?: PaymentStep;
  problem?: Problem;
  /** Reading the order again every 1.5 s: a gateway may still report on it. */
  following: boolean;
  /** Stopped following after two minutes although the gateway has not reported: the page says what to do. */
  stalled: boolean;
  /** Reads the order again, and follows it for another two minutes if a gateway may still report. */
  checkAgain(): void;
}

/**
 * An order and its payment attempts as its owner (Bearer token) or the guest who placed it in this browser (its order
 * token) sees them. While an attempt at an online gateway is open and something is to pay, both are read again every
 * 1.5 s for two minutes, never longer: then `stalled`, until `checkAgain()`. A page the browser brings back from its
 * back-forward cache (Back from the gateway's page) is read again at once.
 */
export function useOrder(alias: string): OrderState {
  const { api } = useShop();
  const [order, setOrder] = useState<Order>();
  const [payments, setPayments] = useState<Payment[]>();
  const [plugins, setPlugins] = useState<PaymentPlugin[]>([]);
  const [problem, setProblem] = useState<Problem>();
  const [following, setFollowing] = useState(false);
  const [stalled, setStalled] = useState(false);
  // Each change starts a new bounded round of reading.
  const [round, setRound] = useState(0);
  const checkAgain = useCallback(() => setRound((r) => r + 1), []);

  useEffect(() => {
    const restored = (event: PageTransitionEvent) => {
      if (event.persisted) checkAgain();
    };
    window.addEventListener('pageshow', restored);
    return () => window.removeEventListener('pageshow', restored);
  }, [checkAgain]);

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const until = Date.now() + FOLLOW_FOR_MS;
    const params = { path: { order_alias: alias }, header: orderTokenHeader(alias) };
    // Read once a round: whether an open attempt waits for a gateway or for an admin (cash) depends on its method.
    let methods: PaymentPlugin[] | undefined;
    setStalled(false);
    const read = async () => {
      try {
        const [found, attempts, known] = await Promise.all([
          ok(api.GET('/order/storefront/api/orders/{order_alias}/', { params })),
          ok(api.GET('/payment/storefront/api/orders/{order_alias}/payments/', { params })),
          // Without the list, methods are named by their ids and the Pay form says there is none.
          methods ?? ok(api.GET('/payment/storefront/api/plugins/')).catch((): PaymentPlugin[] => []),
        ]);
        if (stopped) return;
        methods = known;
        setPlugins(known);
        setOrder(found);
        setPayments(attempts);
        setProblem(undefined);
        const waiting = awaitsGateway(paymentStep({ order: found, attempts, methods: known }));
        const again = waiting && Date.now() < until;
        setFollowing(again);
        setStalled(waiting && !again);
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
  }, [api, alias, round]);

  const step = order && payments ? paymentStep({ order, attempts: payments, methods: plugins }) : undefined;
  return { order, payments, plugins, step, problem, following, stalled, checkAgain };
}
