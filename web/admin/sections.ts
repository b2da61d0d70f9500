/** The dashboard's sections, in the order of its navigation and of the home page's links (paths: web brief). */
export const SECTIONS = [
  { href: '/admin/orders', name: 'Orders', about: 'Find orders, change their status, capture, refund, cancel.' },
  { href: '/admin/returns', name: 'Returns', about: 'Returns waiting to be received or refunded; return reasons.' },
  { href: '/admin/products', name: 'Products', about: 'Products and variants, with stock and prices.' },
  { href: '/admin/categories', name: 'Categories', about: 'The category tree of the shop’s navigation, with SEO.' },
  { href: '/admin/collections', name: 'Collections', about: 'Lists of products in the order you choose.' },
  { href: '/admin/tax', name: 'Tax', about: 'Tax classes and their rates by country and state.' },
  { href: '/admin/shipping', name: 'Shipping', about: 'Shipping methods and their rates.' },
  { href: '/admin/markets', name: 'Markets', about: 'Countries sold to in one currency: rates, rounding, methods.' },
  { href: '/admin/promotions', name: 'Promotions', about: 'Automatic promotions and promo codes.' },
  { href: '/admin/webhooks', name: 'Webhooks', about: 'Endpoints told about orders and payments, and deliveries.' },
] as const;
