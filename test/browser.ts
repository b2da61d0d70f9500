import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from './helpers.js';

export interface Landing {
  /** Where the browser ended up. */
  url: URL;
  /** The page it shows, if that URL is the service's own (undefined for a storefront elsewhere). */
  page: LightMyRequestResponse | undefined;
  /** Each response on the way, the redirects included. */
  hops: LightMyRequestResponse[];
}

/**
 * Opens a URL as a payer's browser would: follows the service's own 303 redirects and stops at a
 * page, or at a URL outside the service (a storefront's return_url), which it does not open.
 */
export async function openAsBrowser(
  t: TestApp,
  start: string,
  headers: Record<string, string> = { accept: 'text/html' },
): Promise<Landing> {
  const own = new URL(t.config.publicBaseUrl).origin;
  const hops: LightMyRequestResponse[] = [];
  let url = new URL(start);
  for (let i = 0; i < 10; i += 1) {
    if (url.origin !== own) return { url, page: undefined, hops };
    const res = await t.app.inject({ method: 'GET', url: url.pathname + url.search, headers });
    hops.push(res);
    if (res.statusCode !== 303) return { url, page: res, hops };
    url = new URL(String(res.headers.location));
  }
  throw new Error(`more than 10 redirects from ${start}`);
}

const ENTITIES: Record<string, string> = { '&quot;': '"', '&#39;': "'", '&lt;': '<', '&gt;': '>', '&amp;': '&' };
const unescapeHtml = (text: string) => text.replace(/&(quot|#39|lt|gt|amp);/g, (e) => ENTITIES[e] ?? e);

/** The hidden inputs of a page's form (entities undone), as a browser submits them. */
export function hiddenFormFields(html: string): URLSearchParams {
  const fields = new URLSearchParams();
  for (const m of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) {
    fields.append(unescapeHtml(m[1] ?? ''), unescapeHtml(m[2] ?? ''));
  }
  return fields;
}
