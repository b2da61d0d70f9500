import type { components } from '../api/schema';

/** An error answer of the API (RFC 9457 problem+json), as docs/api.md describes it. */
export type Problem = components['schemas']['Problem'];

/** Whether a value is a problem+json body. */
export function isProblem(value: unknown): value is Problem {
  return typeof value === 'object' && value !== null && typeof (value as Problem).code === 'string';
}

/** The problem a request failed with: the API's own, or one that says the service could not be reached. */
export function asProblem(error: unknown): Problem {
  if (isProblem(error)) return error;
  const detail = error instanceof Error ? error.message : String(error);
  return { type: 'about:blank', title: 'The shop could not be reached', status: 0, code: 'network_error', detail };
}

/**
 * The message of the errors that name `field` (or a field inside it: `shipping_address.city` for `shipping_address`).
 */
export function fieldError(problem: Problem | undefined, field: string): string | undefined {
  const messages = (problem?.errors ?? [])
    .filter((e) => e.field === field || e.field.startsWith(`${field}.`) || e.field.startsWith(`${field}[`))
    .map((e) => e.message);
  return messages.length > 0 ? messages.join('; ') : undefined;
}

/** The sentence to show for a problem as a whole. */
export function problemMessage(problem: Problem): string {
  return problem.detail ? `${problem.title}: ${problem.detail}` : problem.title;
}

/**
 * The problem to show as a whole, beside the form rather than a field: undefined when every error it carries names one
 * of `fields` (each already shown beside its field).
 */
export function problemBeyondFields(problem: Problem | undefined, fields: string[]): Problem | undefined {
  if (problem === undefined) return undefined;
  const errors = problem.errors ?? [];
  const claimed = (field: string) =>
    fields.some((f) => field === f || field.startsWith(`${f}.`) || field.startsWith(`${f}[`));
  return errors.length > 0 && errors.every((e) => claimed(e.field)) ? undefined : problem;
}
