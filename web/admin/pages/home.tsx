import { SECTIONS } from '../sections';
import { RecentOrders } from '../orders/recent-orders';

/** The dashboard's start: a link to each section, and the newest orders. */
export function Home() {
  return (
    <>
      <h1>Dashboard</h1>
      <ul class="grid">
        {SECTIONS.map((section) => (
          <li class="card" key={section.href}>
            <h2>
              <a href={section.href}>{section.name}</a>
            </h2>
            <p class="muted">{section.about}</p>
          </li>
        ))}
      </ul>
      <RecentOrders />
    </>
  );
}
