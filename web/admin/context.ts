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
  return { api: createApi({ session }), session };
}

export const DashboardContext = createContext<Dashboard | undefined>(undefined);

export function useDashboard(): Dashboard {
  const dashboard = useContext(DashboardContext);
  if (dashboard === undefined) throw new Error('useDashboard outside <DashboardContext.Provider>');
  return dashboard;
}
