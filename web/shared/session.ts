// Who is signed in, kept in the browser (localStorage) so a reload keeps it; each app has its own key, so signing in
// to the dashboard does not sign the shop's customer in or out.

export interface SessionUser {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  role: 'customer' | 'admin';
}

export interface Session {
  user: SessionUser;
  access: string;
  refresh: string;
}

type Listener = (session: Session | undefined) => void;

export interface SessionStore {
  get(): Session | undefined;
  set(session: Session | undefined): void;
  /** Called with the new session (undefined: signed out) after every change; returns the unsubscribe. */
  subscribe(listener: Listener): () => void;
}

function readJson<T>(key: string): T | undefined {
  try {
    const text = localStorage.getItem(key);
    return text === null ? undefined : (JSON.parse(text) as T);
  } catch {
    return undefined;
  }
}

/** A session kept under `key` in localStorage. */
export function browserSession(key: string): SessionStore {
  let current = readJson<Session>(key);
  const listeners = new Set<Listener>();
  return {
    get: () => current,
    set(session) {
      current = session;
      if (session === undefined) localStorage.removeItem(key);
      else localStorage.setItem(key, JSON.stringify(session));
      for (const listener of listeners) listener(session);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Seconds since the epoch at which a JWT expires (its `exp`), or 0 if it cannot be read. */
export function tokenExpiry(token: string): number {
  try {
    const payload = token.split('.')[1] ?? '';
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === 'number' ? exp : 0;
  } catch {
    return 0;
  }
}
