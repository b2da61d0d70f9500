import { useEffect, useState } from 'preact/hooks';
import { type Answer, ok } from '../../api/client';
import { asProblem, type Problem } from '../../shared/problem';
import { ErrorMessage } from '../../shared/ui';
import { useShop } from '../context';
import { orderTokenHeader } from '../order-tokens';

type Plugin = Answer<'/payment/storefront/api/plugins/', 'get'>[number];

/**
 * "Pay" with one of the store's payment plugins: starts the payment and sends the shopper to the gateway's page (the
 * sandbox's is served by the service), which sends them back to this order's page.
 */
export function PayOrder(props: { alias: string }) {
  const { api } = useShop();
  const [plugins, setPlugins] = useState<Plugin[]>();
  const [chosen, setChosen] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem>();

  useEffect(() => {
    ok(api.GET('/payment/storefront/api/plugins/'))
      .then((list) => {
        setPlugins(list);
        setChosen(list[0]?.id);
      })
      .catch((err: unknown) => setProblem(asProblem(err)));
  }, [api]);

  const pay = async (event: Event) => {
    event.preventDefault();
    if (chosen === undefined) return;
    setBusy(true);
    setProblem(undefined);
    try {
      const started = await ok(
        api.POST('/payment/storefront/api/start-payment/{payment_plugin_id}/', {
          params: { path: { payment_plugin_id: chosen }, header: orderTokenHeader(props.alias) },
          body: { order_alias: props.alias, return_url: `${window.location.origin}/orders/${props.alias}` },
        }),
      );
      window.location.assign(started.url);
    } catch (err) {
      setProblem(asProblem(err));
      setBusy(false);
    }
  };

  if (plugins === undefined) return problem ? <ErrorMessage problem={problem} /> : <p>Loading…</p>;
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
              checked={p.id === chosen}
              onChange={() => setChosen(p.id)}
            />
            <span>{p.name}</span>
          </label>
        ))}
      </fieldset>
      <ErrorMessage problem={problem} />
      <button type="submit" disabled={busy || chosen === undefined}>
        Pay
      </button>
    </form>
  );
}
