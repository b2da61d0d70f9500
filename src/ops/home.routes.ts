import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';

const NAME = 'Storefront';
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

/** The weight (`q`) the Accept header gives a media type, by its most specific matching range. */
function weight(accept: string, type: string): number {
  const [major] = type.split('/');
  let best = { specificity: -1, q: 0 };
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const specificity = range === type ? 2 : range === `${major}/*` ? 1 : range === '*/*' ? 0 : -1;
    if (specificity <= best.specificity) continue;
    const q = params.find((p) => p.startsWith('q='));
    best = { specificity, q: q === undefined ? 1 : Number(q.slice(2)) || 0 };
  }
  return best.q;
}

/**
 * Browsers name text/html and take JSON only through a wildcard, so they get the page; API clients
 * (no Accept, `*\/*`, or JSON first) get JSON. Ties go to JSON, since this is an API.
 */
export function prefersHtml(accept: string | undefined): boolean {
  return accept !== undefined && weight(accept, 'text/html') > weight(accept, 'application/json');
}

function page(currency: string): string {
  const item = (href: string, text: string) => `<li><a href="${href}">${href}</a>: ${text}</li>`;
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${NAME}</title></head>
<body>
<h1>${NAME}</h1>
<p>This is a storefront commerce API (prices in ${currency}); it has no web pages yet. Start here:</p>
<ul>
${item(links.docs, 'the API reference')}
${item(links.openapi, 'the OpenAPI 3.1 document')}
${item(links.health, 'liveness')} ${item(links.readiness, 'readiness (the database answers)')}
</ul>
</body>
</html>
`;
}

/** `GET /`: where to start, until the web storefront (SPEC section 12) serves this path. */
export function homeRoutes(deps: { currency: string }): FastifyPluginAsyncTypebox {
  const html = page(deps.currency);
  const home = {
    name: NAME,
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
        // The page is static and links to this host only; nothing else may load in it.
        return reply
          .type('text/html; charset=utf-8')
          .header('content-security-policy', "default-src 'none'")
          .send(html);
      },
    );
  };
}
