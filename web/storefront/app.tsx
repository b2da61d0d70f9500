import { LocationProvider, Route, Router } from 'preact-iso';
import { useEffect, useMemo } from 'preact/hooks';
import { useStoreInfo } from '../shared/store-info';
import { createShop, ShopContext } from './context';
import { NotFound } from './pages/not-found';
import { ProductList } from './pages/product-list';

export function App() {
  const shop = useMemo(createShop, []);
  const info = useStoreInfo(shop.api);
  useEffect(() => {
    if (info) document.title = info.name;
  }, [info]);
  if (info === undefined) return null;
  return (
    <ShopContext.Provider value={{ ...shop, currency: info.currency }}>
      <LocationProvider>
        <header class="site">
          <a href="/">
            <strong>{info.name}</strong>
          </a>
          <nav aria-label="Shop">
            <a href="/">Products</a>
          </nav>
        </header>
        <main>
          <Router>
            <Route path="/" component={ProductList} />
            <Route default component={NotFound} />
          </Router>
        </main>
      </LocationProvider>
    </ShopContext.Provider>
  );
}
