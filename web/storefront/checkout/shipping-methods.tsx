import { useEffect, useState } from 'preact/hooks';
import { type Answer, ok } from '../../api/client';
import { asProblem, type Problem, problemMessage } from '../../shared/problem';
import { ErrorMessage, Money } from '../../shared/ui';
import { useMarketCode, useShop } from '../context';
import type { OrderPayload } from './address';

type Method = Answer<'/shipping/storefront/api/shipping-methods/', 'get'>[number];
/** A method that can deliver there, with its fee for this order (or why it can't take it). */
export interface PricedMethod {
  method: Method;
  fee?: string;
  /** The estimate's currency: the fee is in it. */
  currency?: string;
  problem?: Problem;
}

/**
 * The shipping methods that deliver to the address, each with its fee for this cart: the storefront API lists the
 * methods for a country, and the fee depends on the order's weight, so each is priced by an estimate.
 */
export function useShippingMethods(options: {
  /** The order without a shipping method: its lines and address; undefined until there is a country. */
  order: OrderPayload | undefined;
  where: { country: string; state: string } | undefined;
}): { methods: PricedMethod[] | undefined; problem: Problem | undefined } {
  const { api } = useShop();
  const market = useMarketCode();
  const [methods, setMethods] = useState<PricedMethod[]>();
  const [problem, setProblem] = useState<Problem>();
  // Another market may offer other methods, at fees in its currency.
  const key = JSON.stringify({ ...options, market });

  useEffect(() => {
    setMethods(undefined);
    setProblem(undefined);
    const { order, where } = options;
    if (order === undefined || where === undefined || where.country === '') return;
    let current = true;
    const timer = setTimeout(async () => {
      try {
        const query = where.state ? { country: where.country, state: where.state } : { country: where.country };
        const found = await ok(api.GET('/shipping/storefront/api/shipping-methods/', { params: { query } }));
        const priced = await Promise.all(
          found.map((method) =>
            ok(api.POST('/order/storefront/api/estimate/', { body: { ...order, shipping_method_id: method.id } })).then(
              (estimate): PricedMethod => ({ method, fee: estimate.shipping_fee, currency: estimate.currency }),
              (err: unknown): PricedMethod => ({ method, problem: asProblem(err) }),
            ),
          ),
        );
        if (current) setMethods(priced);
      } catch (err) {
        if (current) setProblem(asProblem(err));
      }
    }, 350);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [api, key]);

  return { methods, problem };
}

export function ShippingMethodChoice(props: {
  methods: PricedMethod[] | undefined;
  problem: Problem | undefined;
  hasCountry: boolean;
  chosen: number | undefined;
  onChoose: (methodId: number) => void;
  error: string | undefined;
}) {
  const { methods } = props;
  if (!props.hasCountry) return <p class="muted">Choose a country to see the shipping methods.</p>;
  if (props.problem) return <ErrorMessage problem={props.problem} />;
  if (methods === undefined) return <p>Loading…</p>;
  if (methods.length === 0) return <p class="error">We do not ship to this address.</p>;
  return (
    <fieldset class="choices">
      <legend>Shipping method</legend>
      {methods.map(({ method, fee, currency, problem }) => (
        <label key={method.id} class="choice">
          <input
            type="radio"
            name="shipping-method"
            value={method.id}
            checked={method.id === props.chosen}
            disabled={problem !== undefined}
            onChange={() => props.onChoose(method.id)}
          />
          <span>
            {method.name}
            {method.description && <span class="muted"> ({method.description})</span>}
          </span>
          {fee !== undefined && currency !== undefined && <Money amount={fee} currency={currency} />}
          {problem && <span class="error">{problemMessage(problem)}</span>}
        </label>
      ))}
      {props.error && <p class="field-error">{props.error}</p>}
    </fieldset>
  );
}
