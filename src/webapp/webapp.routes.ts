import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { prefersHtml } from '../http/accept.js';
import { appFor, isApiPath, type WebApps } from './webapp.js';

/**
 * The apps' pages change with every build and name their assets by content hash: pages are revalidated every time,
 * assets kept a year (and sent compressed as the build wrote them). Scripts come only from this origin; nothing may
 * frame the pages (the payment pages included).
 */
const PAGE_HEADERS = {
  'cache-control': 'no-cache',
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; "
    + "base-uri 'none'; form-action 'self'",
  'referrer-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
};

/** Sends an app's page (index.html): for its own paths and, through the not-found handler, its client-side routes. */
export function sendAppPage(reply: FastifyReply, html: string): FastifyReply {
  return reply.type('text/html; charset=utf-8').headers(PAGE_HEADERS).send(html);
}

/**
 * `/assets/*` (immutable) and the dashboard at `/admin/` and below. The storefront's `/` is the home route's (content
 * negotiation); its other pages are the not-found handler's (`appPageFallback`).
 */
export function webAppRoutes(apps: WebApps): FastifyPluginAsync {
  return async (app) => {
    await app.register(fastifyStatic, {
      root: apps.assetsDir,
      prefix: '/assets/',
      decorateReply: false,
      index: false,
      immutable: true,
      // scripts/build.mjs wrote a .br and a .gz next to each script and style: sent as they are, none compressed per
      // request (docs/decisions/0038-web-quality-measured.md).
      preCompressed: true,
      maxAge: '365d',
      schemaHide: true,
    });
    app.get('/admin/', { schema: { hide: true } }, (_request, reply) => sendAppPage(reply, apps.admin));
    app.get('/admin/*', { schema: { hide: true } }, (_request, reply) => sendAppPage(reply, apps.admin));
  };
}

/**
 * For the not-found handler: a browser's navigation (a GET that prefers HTML) to a path no route has, outside the API,
 * gets the storefront's page, whose router shows that page (or its own "Page not found"). Anything else is left to
 * the problem+json 404.
 */
export function appPageFallback(apps: WebApps) {
  return (request: FastifyRequest, reply: FastifyReply): FastifyReply | undefined => {
    const urlPath = request.url.split('?')[0] ?? '/';
    if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
    if (isApiPath(urlPath) || !prefersHtml(request.headers.accept)) return undefined;
    return sendAppPage(reply, appFor(urlPath) === 'admin' ? apps.admin : apps.storefront);
  };
}
