import { useEffect, useState } from 'preact/hooks';
import { asProblem, type Problem } from '../../shared/problem';
import { ErrorMessage, Money } from '../../shared/ui';
import { CartLineRow } from '../components/cart-line';
import { useCart, useShop } from '../context';

export function CartPage() {
  const { cart, currency } = useShop();
  const current = useCart();
  const [loaded, setLoaded] = useState(false);
  const [problem, setProblem] = useState<Problem>();

  useEffect(() => {
    document.title = 'Cart';
    cart
      .load()
      .catch((err: unknown) => setProblem(asProblem(err)))
      .finally(() => setLoaded(true));
  }, [cart]);

  const items = current?.items ?? [];
  return (
    <>
      <h1>Cart</h1>
      <ErrorMessage problem={problem} />
      {!loaded && <p>Loading…</p>}
      {loaded && items.length === 0 && (
        <p>
          Your cart is empty. <a href="/">See the products</a>.
        </p>
      )}
      {items.length > 0 && current && (
        <>
          <div class="table-wrap">
            <table class="reflow">
              <caption class="visually-hidden">Items in your cart</caption>
              <thead>
                <tr>
                  <th scope="col">Item</th>
                  <th scope="col" class="num">
                    Price
                  </th>
                  <th scope="col">Quantity</th>
                  <th scope="col" class="num">
                    Subtotal
                  </th>
                </tr>
              </thead>
              <tbody>
                {items.map((line) => (
                  <CartLineRow key={line.product_variant_id} line={line} currency={current.currency || currency} />
                ))}
              </tbody>
            </table>
          </div>
          <p class="total">
            Subtotal ({current.total_items} {current.total_items === 1 ? 'item' : 'items'}):{' '}
            <Money amount={current.subtotal} currency={current.currency || currency} />
          </p>
          <p class="muted">Shipping and tax are worked out at checkout.</p>
          <a class="button" href="/checkout">
            Checkout
          </a>
        </>
      )}
    </>
  );
}
