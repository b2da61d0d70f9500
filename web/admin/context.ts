import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { type Api, createApi } from '../api/client';
import { browserSession, type SessionStore } from '../shared/session';

/** What every dashboard page shares: the API client (signed in as the admin) and the session. */
export interface Dashboard {
  api: Api;
  session: SessionStore;
  currency: string;
}

export function createDashboard(): Omit<Dashboard, 'currency'> {
  const session = browserSession('dashboard.session');
  const api = createApi({ session });
  api.use({
    onResponse({ request, response }) {
      // A 401 to a signed request: the session expired or was revoked. Signing out shows the sign-in page (with
      // the reason, see App) in place of the page, which comes back once the admin has signed in again.
      if (response.status === 401 && request.headers.has('authorization') && session.get() !== undefined) {
        session.set(undefined);
      }
      return response;
    },
  });
  return { api, session };
}

export const DashboardContext = createContext<Dashboard | undefined>(undefined);

export function useDashboard(): Dashboard {
  const dashboard = useContext(DashboardContext);
  if (dashboard === undefined) throw new Error('useDashboard outside <DashboardContext.Provider>');
  return dashboard;
}
