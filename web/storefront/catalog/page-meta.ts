/**
 * A page's `<title>` and `<meta name="description">`: what the storefront's answers carry as `seo` (the service has
 * applied its fallbacks: the name for the title, the start of the description for the description, maybe empty).
 */
export function setPageMeta(seo: { title: string; description: string }): void {
  document.title = seo.title;
  let meta = document.head.querySelector<HTMLMetaElement>('meta[name="description"]');
  if (seo.description === '') {
    meta?.remove();
    return;
  }
  if (meta === null) {
    meta = document.createElement('meta');
    meta.name = 'description';
    document.head.append(meta);
  }
  meta.content = seo.description;
}
