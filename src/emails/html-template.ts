import { escapeHtml } from '../http/html.js';

/**
 * HTML built with the `html` tag: every interpolated value is escaped unless it is itself the
 * result of the tag, so a template can't forget to escape a customer's name.
 */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type Interpolated = string | number | SafeHtml | readonly SafeHtml[];

const piece = (value: Interpolated): string => {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map((v: SafeHtml) => v.value).join('');
  return escapeHtml(String(value));
};

export function html(strings: TemplateStringsArray, ...values: Interpolated[]): SafeHtml {
  return new SafeHtml(
    strings.reduce((out, text, i) => out + text + (i < values.length ? piece(values[i] ?? '') : ''), ''),
  );
}
