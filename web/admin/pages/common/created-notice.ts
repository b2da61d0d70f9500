import { useState } from 'preact/hooks';

/**
 * Whether this page was opened right after creating its record (`?created=1`, set by the form that created it). The
 * flag leaves the address at once, so a reload or a bookmark doesn't say "created" again.
 */
export function useCreatedNotice(query: Record<string, string>): boolean {
  const [created] = useState(() => {
    const flagged = query.created !== undefined;
    if (flagged) history.replaceState(history.state, '', window.location.pathname);
    return flagged;
  });
  return created;
}
