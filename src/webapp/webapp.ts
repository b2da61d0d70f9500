// The built web apps (web/ → dist/public by `npm run build`): the storefront's and the dashboard's HTML, read once at
// start, and the folder of their hashed assets.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** dist/public of this checkout, from src/webapp (tsx) and dist/webapp (built) alike. */
export const DEFAULT_WEB_ROOT = fileURLToPath(new URL('../../dist/public/', import.meta.url));

export interface WebApps {
  /** The storefront's page (index.html), served at / and its client-side routes. */
  storefront: string;
  /** The dashboard's page (admin/index.html), served at /admin/ and below. */
  admin: string;
  /** Folder of the hashed scripts and styles, served at /assets/. */
  assetsDir: string;
}

/** The built apps in `root`, or undefined when they were not built (the API works without them). */
export function loadWebApps(root: string = DEFAULT_WEB_ROOT): WebApps | undefined {
  const storefront = path.join(root, 'index.html');
  const admin = path.join(root, 'admin', 'index.html');
  if (!existsSync(storefront) || !existsSync(admin)) return undefined;
  return {
    storefront: readFileSync(storefront, 'utf8'),
    admin: readFileSync(admin, 'utf8'),
    assetsDir: path.join(root, 'assets'),
  };
}

/** Whether a path is the API's (`/<module>/storefront/api/…`, `/<module>/dashboard/api/…`), never an app page. */
export function isApiPath(urlPath: string): boolean {
  return /^\/[a-z_]+\/(storefront|dashboard)\/api(\/|$)/.test(urlPath);
}

/** Which app's page a browser asking for `urlPath` gets. */
export function appFor(urlPath: string): 'admin' | 'storefront' {
  return urlPath === '/admin' || urlPath.startsWith('/admin/') ? 'admin' : 'storefront';
}
