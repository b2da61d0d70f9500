import type { Problem } from '../../shared/problem';
import { ErrorMessage } from '../../shared/ui';

/** A page whose product, category or collection could not be read: what is missing, why, and the way back. */
export function NotAvailable(props: { title: string; problem: Problem }) {
  return (
    <>
      <h1>{props.title}</h1>
      <ErrorMessage problem={props.problem} />
      <p>
        <a href="/">See the products</a>
      </p>
    </>
  );
}
