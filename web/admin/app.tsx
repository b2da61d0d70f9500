import { LocationProvider, Route, Router } from 'preact-iso';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { useStoreInfo } from '../shared/store-info';
import { createDashboard, DashboardContext } from './context';
import * as catalog from './pages/catalog-routes';
import { Home } from './pages/home';
import { NotFound } from './pages/not-found';
import { SignIn } from './pages/sign-in';

export function App() {
  const dashboard = useMemo(createDashboard, []);
  const info = useStoreInfo(dashboard.api);
  const [session, setSession] = useState(dashboard.session.get());
  useEffect(() => dashboard.session.subscribe(setSession), [dashboard]);
  useEffect(() => {
    if (info) document.title = `${info.name} dashboard`;
  }, [info]);
  if (info === undefined) return null;
  const signedIn = session?.user.role === 'admin';
  return (
    <DashboardContext.Provider value={{ ...dashboard, currency: info.currency }}>
      <LocationProvider scope="/admin">
        <header class="site">
          <a href="/admin/">
            <strong>{info.name} dashboard</strong>
          </a>
          {signedIn && (
            <nav aria-label="Dashboard">
              <span class="muted">{session.user.email}</span>
              <button type="button" class="secondary" onClick={() => dashboard.session.set(undefined)}>
                Sign out
              </button>
            </nav>
          )}
        </header>
        <main>
          {signedIn ? (
            <Router>
              <Route path="/admin/" component={Home} />
              <Route path="/admin/products" component={catalog.ProductList} />
              <Route path="/admin/products/:id" component={catalog.ProductPage} />
              <Route path="/admin/tax" component={catalog.TaxPage} />
              <Route path="/admin/shipping" component={catalog.ShippingPage} />
              <Route path="/admin/promotions" component={catalog.PromotionList} />
              <Route path="/admin/promotions/new" component={catalog.NewPromotion} />
              <Route path="/admin/promotions/:id" component={catalog.PromotionPage} />
              <Route default component={NotFound} />
            </Router>
          ) : (
            <SignIn />
          )}
        </main>
      </LocationProvider>
    </DashboardContext.Provider>
  );
}
