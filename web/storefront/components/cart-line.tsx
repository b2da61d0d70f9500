import { useEffect, useState } from 'preact/hooks';
import { lineNaming } from '../../../src/orders/line-naming.js';
import { asProblem, type Problem } from '../../shared/problem';
import { LineThumbnail } from '../../shared/picture';
import { Money } from '../../shared/ui';
import type { CartLine } from '../cart';
import { useShop } from '../context';
import { cartProblemMessage } from '../shopper-messages';

/** One line of the cart: its quantity can be changed (Update) or the line removed; an error shows beside it. */
export function CartLineRow(props: { line: CartLine; currency: string }) {
  const { cart } = useShop();
  const { line, currency } = props;
  const [quantity, setQuantity] = useState(String(line.quantity));
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem>();
  const label = `${line.product_name} (${line.name})`;
  const naming = lineNaming({ product: line.product_name, variant: line.name, options: line.options });
  const errorId = `line-${line.product_variant_id}-error`;

  useEffect(() => setQuantity(String(line.quantity)), [line.quantity]);

  const change = async (run: () => Promise<unknown>) => {
    setBusy(true);
    setProblem(undefined);
    try {
      await run();
    } catch (err) {
      setProblem(asProblem(err));
    } finally {
      setBusy(false);
    }
  };
  const update = (event: Event) => {
    event.preventDefault();
    const wanted = Number(quantity);
    if (!Number.isInteger(wanted) || wanted < 0) {
      setProblem({ type: 'about:blank', title: 'Enter a whole number of items', status: 0, code: 'validation_error' });
      return;
    }
    void change(() => cart.setQuantity({ variantId: line.product_variant_id, quantity: wanted }));
  };

  return (
    <tr>
      <th scope="row">
        <div class="line-item">
          <LineThumbnail image={line.image} />
          <div>
            {naming.title}
            {naming.variant !== null && (
              <>
                <br />
                <span class="muted">{naming.variant}</span>
              </>
            )}
            {naming.options !== null && <div class="detail">{naming.options}</div>}
            {!line.available && <p class="error">No longer available in this quantity</p>}
          </div>
        </div>
      </th>
      <td class="num" data-label="Price">
        <Money amount={line.unit_price} currency={currency} />
      </td>
      <td data-label="Quantity">
        <form class="row" onSubmit={update}>
          <input
            class="qty"
            type="number"
            min={0}
            max={999}
            value={quantity}
            aria-label={`Quantity of ${label}`}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? errorId : undefined}
            onInput={(e) => setQuantity(e.currentTarget.value)}
          />
          <button type="submit" class="secondary" disabled={busy} aria-label={`Update quantity of ${label}`}>
            Update
          </button>
          <button
            type="button"
            class="secondary"
            disabled={busy}
            aria-label={`Remove ${label}`}
            onClick={() => void change(() => cart.remove(line.product_variant_id))}
          >
            Remove
          </button>
        </form>
        {problem && (
          <p id={errorId} role="alert" class="field-error">
            {cartProblemMessage(problem)}
          </p>
        )}
      </td>
      <td class="num" data-label="Subtotal">
        <Money amount={line.subtotal} currency={currency} />
      </td>
    </tr>
  );
}
