import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, type ErrorCode, errorCodes } from '../shared/errors.js';

/**
 * The few pages the service serves itself (the sandbox's checkout, the order page a payer lands
 * on): plain HTML, an inline style and nothing else (no script, no external asset), every
 * interpolated value escaped.
 */

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

/**
 * What the pages are sent with: no framing (a button can't be clickjacked), nothing loaded, not
 * kept by any cache, and no Referer carrying the page's signed link to wherever a click leads.
 */
export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
} as const;

/** A whole document around `body` (already escaped HTML); the title is escaped here. */
export function htmlDocument(input: { title: string; style: string; body: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(input.title)}</title>
<style>${input.style}</style>
</head>
<body>
<main>
${input.body}
</main>
</body>
</html>
`;
}

const ERROR_STYLE = `
  body { font: 16px/1.5 system-ui, sans-serif; background: #f4f4f5; color: #18181b; margin: 0; }
  main { max-width: 32rem; margin: 4rem auto; background: #fff; border-radius: .5rem; padding: 2rem; }
  h1 { font-size: 1.25rem; margin: 0 0 1rem; }
  .error { color: #b91c1c; } .note { color: #71717a; font-size: .875rem; }`;

/** A browser asked (it prefers HTML); any other client gets problem+json. */
function wantsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  return typeof accept === 'string' && /\btext\/html\b/i.test(accept);
}

/**
 * Refuses a request to a page: a browser gets an HTML page saying why (with the problem's code),
 * any other client the usual problem+json through the error handler.
 */
export function refusePage(
  request: FastifyRequest,
  reply: FastifyReply,
  refusal: { code: ErrorCode; detail: string },
): FastifyReply {
  if (!wantsHtml(request)) throw new DomainError(refusal.code, { detail: refusal.detail });
  const { status, title } = errorCodes[refusal.code];
  const body = `<h1>${escapeHtml(title)}</h1>
<p class="error">${escapeHtml(refusal.detail)}</p>
<p class="note">Error code: <code>${escapeHtml(refusal.code)}</code></p>`;
  return reply
    .code(status)
    .headers(PAGE_HEADERS)
    .send(htmlDocument({ title, style: ERROR_STYLE, body }));
}
