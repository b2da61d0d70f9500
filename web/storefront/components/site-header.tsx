import { useLocation } from 'preact-iso';
import { useEffect } from 'preact/hooks';
import { useCart, useSession, useShop } from '../context';
import { MarketChoice } from './market-choice';
import { SearchBox } from './search-box';

/**
 * The shop's name, links to the products, the cart (with how many items it holds) and the account, and the
 * country/currency selector.
 */
export function SiteHeader(props: { storeName: string }) {
  const { cart, session } = useShop();
  const current = useCart();
  const signedIn = useSession();
  const { route } = useLocation();

  useEffect(() => {
    void cart.load().catch(() => undefined);
  }, [cart]);

  const signOut = () => {
    session.set(undefined);
    route('/');
  };
  return (
    <header class="site">
      <a href="/">
        <strong>{props.storeName}</strong>
      </a>
      <SearchBox />
      <nav aria-label="Shop">
        <a href="/">Products</a>
        <a href="/cart">Cart ({current?.total_items ?? 0})</a>
        {signedIn ? (
          <>
            <a href="/account/orders">Your orders</a>
            <button type="button" class="link" onClick={signOut}>
              Sign out
            </button>
          </>
        ) : (
          <>
            <a href="/sign-in">Sign in</a>
            <a href="/sign-up">Sign up</a>
          </>
        )}
      </nav>
      <MarketChoice />
    </header>
  );
}
