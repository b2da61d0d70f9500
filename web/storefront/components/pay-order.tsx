import { useEffect, useState } from 'preact/hooks';
import { ok } from '../../api/client';
import { asProblem, type Problem } from '../../shared/problem';
import { ErrorMessage } from '../../shared/ui';
import { useShop } from '../context';
import { orderTokenHeader } from '../order-tokens';
import type { PaymentPlugin } from '../use-order';

/**
 * "Pay 24.68 USD" with one of the store's payment plugins: starts the payment and sends the shopper to the gateway's
 * page (the sandbox's is served by the service), which sends them back to this order's page. The same method as the
 * attempt already open resumes that attempt, another one supersedes it (the API decides both).
 */
export function PayOrder(props: {
  alias: string;
  toPay: string;
  currency: string;
  plugins: PaymentPlugin[];
  /** The method chosen at first (the open attempt's, to resume it), else the first. */
  preferredPluginId?: string | undefined;
}) {
  const { api } = useShop();
  const { plugins, preferredPluginId } = props;
  const [chosen, setChosen] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem>();
  const selected = chosen ?? plugins.find((p) => p.id === preferredPluginId)?.id ?? plugins[0]?.id;

  // Back from the gateway's page may bring this page back as it was left (back-forward cache): busy no more.
  useEffect(() => {
    const restored = (event: PageTransitionEvent) => {
      if (event.persisted) setBusy(false);
    };
    window.addEventListener('pageshow', restored);
    return () => window.removeEventListener('pageshow', restored);
  }, []);

  const pay = async (event: Event) => {
    event.preventDefault();
    if (selected === undefined) return;
    setBusy(true);
    setProblem(undefined);
    try {
      const started = await ok(
        api.POST('/payment/storefront/api/start-payment/{payment_plugin_id}/', {
          params: { path: { payment_plugin_id: selected }, header: orderTokenHeader(props.alias) },
          body: { order_alias: props.alias, return_url: `${window.location.origin}/orders/${props.alias}` },
        }),
      );
      window.location.assign(started.url);
    } catch (err) {
      setProblem(asProblem(err));
      setBusy(false);
    }
  };

  if (plugins.length === 0) return <p>This shop takes no payments online yet.</p>;
  return (
    <form onSubmit={pay}>
      <fieldset class="choices">
        <legend>Payment method</legend>
        {plugins.map((p) => (
          <label key={p.id} class="choice">
            <input
              type="radio"
              name="payment-plugin"
              value={p.id}
              checked={p.id === selected}
              onChange={() => setChosen(p.id)}
            />
            <span>{p.name}</span>
          </label>
        ))}
      </fieldset>
      <ErrorMessage problem={problem} />
      <button type="submit" disabled={busy || selected === undefined}>
        Pay {props.toPay} {props.currency}
      </button>
    </form>
  );
}
