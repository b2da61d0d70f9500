// What a client asks for in its Accept header.

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
