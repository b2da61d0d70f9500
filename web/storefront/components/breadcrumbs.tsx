import { categoryPath } from '../catalog/paths';

/**
 * "Products › Coffee › Mugs": the way down from the shop's home to this page, each step a link, the page itself last
 * and marked as the current one.
 */
export function Breadcrumbs(props: { trail: { name: string; handle: string }[]; current: string }) {
  return (
    <nav aria-label="Breadcrumb" class="breadcrumbs">
      <ol>
        <li>
          <a href="/">Products</a>
        </li>
        {props.trail.map((step) => (
          <li key={step.handle}>
            <a href={categoryPath(step.handle)}>{step.name}</a>
          </li>
        ))}
        <li aria-current="page">{props.current}</li>
      </ol>
    </nav>
  );
}
