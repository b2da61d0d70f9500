import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { prefersHtml } from '../http/accept.js';
import type { WebApps } from '../webapp/webapp.js';
import { sendAppPage } from '../webapp/webapp.routes.js';

const links = { docs: '/docs', openapi: '/openapi.json', health: '/healthz', readiness: '/readyz' };

const Home = Type.Object({
  name: Type.String(),
  description: Type.String(),
  currency: Type.String({ description: 'ISO 4217 code of every price in the store' }),
  links: Type.Object({
    docs: Type.String({ description: 'API reference page' }),
    openapi: Type.String({ description: 'OpenAPI 3.1 document' }),
    health: Type.String({ description: 'Liveness check' }),
    readiness: Type.String({ description: 'Readiness check (the database answers)' }),
  }),
});

function page(input: { storeName: string; currency: string }): string {
  const { storeName: NAME, currency } = input;
  const item = (href: string, text: string) => `<li><a href="${href}">${href}</a>: ${text}</li>`;
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${NAME}</title></head>
<body>
<h1>${NAME}</h1>
<p>This is a storefront commerce API (prices in ${currency}). Its web apps were not built (<code>npm run build</code>
builds them); the API works without them. Start here:</p>
<ul>
${item(links.docs, 'the API reference')}
${item(links.openapi, 'the OpenAPI 3.1 document')}
${item(links.health, 'liveness')} ${item(links.readiness, 'readiness (the database answers)')}
</ul>
</body>
</html>
`;
}

/**
 * `GET /`: the storefront's page for a browser (or, if the web apps were not built, a page of links); for an API
 * client, the store's name and currency and where to start.
 */
export function homeRoutes(deps: {
  storeName: string;
  currency: string;
  webApps: WebApps | undefined;
}): FastifyPluginAsyncTypebox {
  const html = page(deps);
  const home = {
    name: deps.storeName,
    description: 'Storefront commerce API: cart, order estimate and placement, payments.',
    currency: deps.currency,
    links,
  };
  return async (app) => {
    app.get(
      '/',
      {
        schema: {
          tags: ['operations'],
          summary: 'Where to start: links to the API reference, the OpenAPI document and the health checks',
          description: 'An HTML page when the client prefers text/html (a browser), JSON otherwise.',
          response: {
            200: {
              content: {
                'application/json': { schema: Home },
                'text/html': { schema: Type.String() },
              },
            },
          },
        },
      },
      async (request, reply) => {
        reply.header('vary', 'accept');
        if (!prefersHtml(request.headers.accept)) return reply.type('application/json; charset=utf-8').send(home);
        if (deps.webApps) return sendAppPage(reply, deps.webApps.storefront);
        // The page is static and links to this host only; nothing else may load in it.
        return reply
          .type('text/html; charset=utf-8')
          .header('content-security-policy', "default-src 'none'")
          .send(html);
      },
    );
  };
}
