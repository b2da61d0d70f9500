import { partSummary } from './part-draft';
import type { Promotion } from './promotion-draft';
import { actionKinds } from './promotion-kinds';

/** What a promotion gives, in a few words: "Percent off the order: 10 %". Amounts as the API wrote them. */
export function actionSummary(action: Promotion['action'], currency: string): string {
  return partSummary(actionKinds, action, currency);
}

/** The window in the browser's time zone: "from … until …", or "always". */
export function windowSummary(p: Pick<Promotion, 'starts_at' | 'expires_at'>): string {
  const at = (iso: string) => new Date(iso).toLocaleString();
  if (p.starts_at && p.expires_at) return `${at(p.starts_at)} to ${at(p.expires_at)}`;
  if (p.starts_at) return `from ${at(p.starts_at)}`;
  if (p.expires_at) return `until ${at(p.expires_at)}`;
  return 'always';
}
