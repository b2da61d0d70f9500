import { LocationProvider, Route, Router } from 'preact-iso';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { ok } from '../api/client';
import { useStoreInfo } from '../shared/store-info';
import { useNavigationSettled } from './catalog/use-categories';
import { CategoryNav } from './components/category-nav';
import { SiteHeader } from './components/site-header';
import { createShop, type Shop, ShopContext } from './context';
import type { StorefrontMarket } from './market';
import { AccountOrder } from './pages/account-order';
import { AccountOrders } from './pages/account-orders';
import { CartPage } from './pages/cart-page';
import { CategoryPage } from './pages/category-page';
import { CheckoutPage } from './pages/checkout-page';
import { CollectionPage } from './pages/collection-page';
import { NotFound } from './pages/not-found';
import { OrderConfirmation } from './pages/order-confirmation';
import { ProductList } from './pages/product-list';
import { ProductPage } from './pages/product-page';
import { SearchPage } from './pages/search-page';
import { SignIn } from './pages/sign-in';
import { SignUp } from './pages/sign-up';

/**
 * The links the shop's router handles itself: its own pages. A link to a page the service serves (a gateway's page it
 * hosts, such as the sandbox's checkout under /payment/, an API or HTML page of a module, the dashboard, /docs), or to
 * another origin, is left to the browser; routed in the shop, it would show "not found".
 */
const SHOP_LINKS = /^\/(?!(admin|docs)(\/|$)|payment\/|[a-z_]+\/(storefront|dashboard)\/)/;

/**
 * The store's markets, read once. A market chosen earlier that the store no longer has is forgotten (the service
 * would refuse its code), and the cart read again without it.
 */
function useMarkets(shop: Omit<Shop, 'currency' | 'markets'>): StorefrontMarket[] {
  const [markets, setMarkets] = useState<StorefrontMarket[]>([]);
  useEffect(() => {
    ok(shop.api.GET('/market/storefront/api/markets/'))
      .then((found) => {
        const chosen = shop.market.get();
        if (chosen !== undefined && !found.some((m) => m.code === chosen)) shop.market.set(undefined);
        setMarkets(found);
      })
      // Without the list the shop still sells, in the market the service picks; the selector is not shown.
      .catch(() => undefined);
  }, [shop]);
  return markets;
}

export function App() {
  const shop = useMemo(createShop, []);
  const info = useStoreInfo(shop.api);
  const markets = useMarkets(shop);
  const navigationSettled = useNavigationSettled(shop.api);
  useEffect(() => {
    if (info) document.title = info.name;
  }, [info]);
  if (info === undefined || !navigationSettled) return null;
  return (
    <ShopContext.Provider value={{ ...shop, markets, currency: info.currency }}>
      <LocationProvider scope={SHOP_LINKS}>
        <SiteHeader storeName={info.name} />
        <CategoryNav />
        <main>
          <Router>
            <Route path="/" component={ProductList} />
            <Route path="/products/:id" component={ProductPage} />
            <Route path="/search" component={SearchPage} />
            <Route path="/p/:handle" component={ProductPage} />
            <Route path="/c/:handle" component={CategoryPage} />
            <Route path="/collections/:handle" component={CollectionPage} />
            <Route path="/cart" component={CartPage} />
            <Route path="/checkout" component={CheckoutPage} />
            <Route path="/orders/:alias" component={OrderConfirmation} />
            <Route path="/sign-in" component={SignIn} />
            <Route path="/sign-up" component={SignUp} />
            <Route path="/account/orders" component={AccountOrders} />
            <Route path="/account/orders/:alias" component={AccountOrder} />
            <Route default component={NotFound} />
          </Router>
        </main>
      </LocationProvider>
    </ShopContext.Provider>
  );
}
