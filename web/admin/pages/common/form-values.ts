// Form text → the JSON the API takes. Only what the browser can't send as typed is converted here (a list of ids, a
// blank meaning null); the API checks everything else and its 422 is shown beside the field.
import type { Problem } from '../../../shared/problem';

/** A field's refusal found before sending, named like the API names its fields. */
export interface FormError {
  field: string;
  message: string;
}

/** Thrown by a form's body builder: shown like the API's 422, beside the fields. */
export class FormErrors extends Error {
  constructor(readonly errors: FormError[]) {
    super(errors.map((e) => `${e.field} ${e.message}`).join('; '));
  }

  problem(): Problem {
    return {
      type: 'about:blank',
      title: 'Check the form',
      status: 422,
      code: 'validation_error',
      detail: 'some fields need another value',
      errors: this.errors,
    };
  }
}

/** Collects the conversions' refusals; `done()` throws them all at once. */
export function formReader() {
  const errors: FormError[] = [];
  return {
    /** Blank: null; else the number typed (the API refuses a fraction or a value out of range by name). */
    integerOrNull(field: string, text: string): number | null {
      const trimmed = text.trim();
      if (trimmed === '') return null;
      const value = Number(trimmed);
      if (!Number.isFinite(value)) errors.push({ field, message: 'must be a whole number' });
      return value;
    },
    /** A required whole number. */
    integer(field: string, text: string): number {
      const value = this.integerOrNull(field, text);
      if (value === null) {
        errors.push({ field, message: 'is required' });
        return 0;
      }
      return value;
    },
    /** Ids separated by commas or spaces ("3, 7"); blank: null. */
    idsOrNull(field: string, text: string): number[] | null {
      const parts = text.split(/[\s,]+/).filter(Boolean);
      if (parts.length === 0) return null;
      const ids = parts.map(Number);
      if (ids.some((id) => !Number.isInteger(id))) errors.push({ field, message: 'must be ids separated by commas' });
      return ids;
    },
    /** Ids that must be there. */
    ids(field: string, text: string): number[] {
      const ids = this.idsOrNull(field, text);
      if (ids === null) {
        errors.push({ field, message: 'needs at least one id' });
        return [];
      }
      return ids;
    },
    /** A refusal of the form's own (a date it cannot read). */
    fail(field: string, message: string): void {
      errors.push({ field, message });
    },
    done(): void {
      if (errors.length > 0) throw new FormErrors(errors);
    },
  };
}

/** Blank: null; else the text as typed. */
export function textOrNull(text: string): string | null {
  return text.trim() === '' ? null : text.trim();
}

/** Ids as the form shows them: "3, 7"; null: "". */
export function idsText(ids: readonly number[] | null | undefined): string {
  return ids ? ids.join(', ') : '';
}
