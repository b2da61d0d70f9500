import { LocationProvider, lazy, Route, Router, useLocation } from 'preact-iso';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useStoreInfo } from '../shared/store-info';
import { createDashboard, DashboardContext } from './context';
import * as catalog from './pages/catalog-routes';
import { Home } from './pages/home';
import { NotFound } from './pages/not-found';
import { OrderList } from './pages/order-list';
import { SignIn } from './pages/sign-in';
import { SECTIONS } from './sections';

const OrderDetail = lazy(() => import('./pages/order-detail').then((m) => m.OrderDetail));
const WebhookList = lazy(() => import('./pages/webhook-list').then((m) => m.WebhookList));
const WebhookDetail = lazy(() => import('./pages/webhook-detail').then((m) => m.WebhookDetail));

function SectionNav() {
  const { path } = useLocation();
  return (
    <nav aria-label="Dashboard">
      {SECTIONS.map((section) => {
        const here = path === section.href || path.startsWith(`${section.href}/`);
        return (
          <a key={section.href} href={section.href} aria-current={here ? 'page' : undefined}>
            {section.name}
          </a>
        );
      })}
    </nav>
  );
}

export function App() {
  const dashboard = useMemo(createDashboard, []);
  const info = useStoreInfo(dashboard.api);
  const [session, setSession] = useState(dashboard.session.get());
  const [signedOutWhy, setSignedOutWhy] = useState<string>();
  const signingOut = useRef(false);
  useEffect(
    () =>
      dashboard.session.subscribe((next) => {
        // Signed out without the admin asking: the API refused the session (expired, revoked).
        if (next === undefined && !signingOut.current) setSignedOutWhy('Your session has ended: sign in again.');
        if (next !== undefined) setSignedOutWhy(undefined);
        signingOut.current = false;
        setSession(next);
      }),
    [dashboard],
  );
  useEffect(() => {
    if (info) document.title = `${info.name} dashboard`;
  }, [info]);
  if (info === undefined) return null;
  const signedIn = session?.user.role === 'admin';
  const signOut = () => {
    signingOut.current = true;
    dashboard.session.set(undefined);
  };
  return (
    <DashboardContext.Provider value={{ ...dashboard, currency: info.currency }}>
      <LocationProvider scope="/admin">
        <header class="site">
          <a href="/admin/">
            <strong>{info.name} dashboard</strong>
          </a>
          {signedIn && <SectionNav />}
          {signedIn && (
            <div class="row signed-in">
              <span class="muted">{session.user.email}</span>
              <button type="button" class="secondary" onClick={signOut}>
                Sign out
              </button>
            </div>
          )}
        </header>
        <main>
          {signedIn ? (
            <Router>
              <Route path="/admin/" component={Home} />
              <Route path="/admin/orders" component={OrderList} />
              <Route path="/admin/orders/:alias" component={OrderDetail} />
              <Route path="/admin/returns" component={catalog.ReturnList} />
              <Route path="/admin/returns/reasons" component={catalog.ReturnReasons} />
              <Route path="/admin/webhooks" component={WebhookList} />
              <Route path="/admin/webhooks/:id" component={WebhookDetail} />
              <Route path="/admin/products" component={catalog.ProductList} />
              <Route path="/admin/products/:id" component={catalog.ProductPage} />
              <Route path="/admin/categories" component={catalog.CategoriesPage} />
              <Route path="/admin/collections" component={catalog.CollectionsPage} />
              <Route path="/admin/tax" component={catalog.TaxPage} />
              <Route path="/admin/shipping" component={catalog.ShippingPage} />
              <Route path="/admin/markets" component={catalog.MarketsPage} />
              <Route path="/admin/promotions" component={catalog.PromotionList} />
              <Route path="/admin/promotions/new" component={catalog.NewPromotion} />
              <Route path="/admin/promotions/:id" component={catalog.PromotionPage} />
              <Route default component={NotFound} />
            </Router>
          ) : (
            <SignIn notice={signedOutWhy} />
          )}
        </main>
      </LocationProvider>
    </DashboardContext.Provider>
  );
}
