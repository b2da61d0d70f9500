// The storefront (/) and the dashboard (/admin/), built into dist/public, which the service serves
// (src/webapp/webapp.routes.ts). `npm run dev` serves them from here with hot reload, the API proxied to the service.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import preact from '@preact/preset-vite';
import { defineConfig, type Plugin } from 'vite';

const here = (rel: string) => fileURLToPath(new URL(rel, import.meta.url));
const api = `http://127.0.0.1:${process.env.PORT ?? '8000'}`;

/**
 * `npm run dev`: a browser's navigation to a dashboard page (/admin/orders, a reload included) gets the dashboard's
 * index.html, as the service answers it (src/webapp/); vite's own fallback would give the storefront's.
 */
function dashboardPages(): Plugin {
  return {
    name: 'dashboard-pages',
    configureServer(server) {
      server.middlewares.use((req, _res, next) => {
        const pathname = (req.url ?? '').split('?')[0] ?? '';
        const page = /^\/admin(\/|$)/.test(pathname) && path.extname(pathname) === '';
        if (page && req.headers.accept?.includes('text/html')) req.url = '/admin/index.html';
        next();
      });
    },
  };
}

export default defineConfig({
  root: here('.'),
  base: '/',
  plugins: [preact(), dashboardPages()],
  build: {
    outDir: here('../dist/public'),
    emptyOutDir: true,
    // Hashed names under /assets/: the service sends them with a year's immutable caching.
    assetsDir: 'assets',
    // dist/public/.vite/manifest.json (not served): which chunks each page loads, for scripts/check-web-size.mjs.
    manifest: true,
    rollupOptions: { input: { storefront: here('index.html'), admin: here('admin/index.html') } },
  },
  server: {
    host: '127.0.0.1',
    port: Number(process.env.WEB_DEV_PORT ?? 5173),
    strictPort: true,
    // Everything the apps call is the service's: its API (/<module>/storefront|dashboard/...), the payment pages.
    proxy: {
      '^/[a-z_]+/(storefront|dashboard)/': api,
      '^/payment/': api,
      '/openapi.json': api,
      '/docs': api,
    },
  },
});
