/** The shop's own description (web/index.html's), read before a page replaced it. */
let shopDescription: string | undefined;

/**
 * A page's `<title>` and `<meta name="description">`: what the storefront's answers carry as `seo` (the service has
 * applied its fallbacks: the name for the title, the start of the description for the description, maybe empty). An
 * empty description leaves the shop's own (a page without one is marked down by search engines and Lighthouse).
 */
export function setPageMeta(seo: { title: string; description: string }): void {
  document.title = seo.title;
  let meta = document.head.querySelector<HTMLMetaElement>('meta[name="description"]');
  shopDescription ??= meta?.content ?? '';
  const description = seo.description === '' ? shopDescription : seo.description;
  if (description === '') {
    meta?.remove();
    return;
  }
  if (meta === null) {
    meta = document.createElement('meta');
    meta.name = 'description';
    document.head.append(meta);
  }
  meta.content = description;
}
