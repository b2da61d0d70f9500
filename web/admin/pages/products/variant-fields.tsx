import type { Problem } from '../../../shared/problem';
import { fieldError } from '../../../shared/problem';
import { Field } from '../../../shared/ui';
import { useDashboard } from '../../context';
import { CheckboxField } from '../common/form-parts';
import type { VariantDraft } from './variant-draft';

/**
 * A variant's inputs (new or existing), each with the API's error for it beside it; `prefix` is how the API names
 * them in `errors[]` (`variants[0].` inside a new product, nothing for a variant of its own).
 */
export function VariantFields(props: {
  draft: VariantDraft;
  onChange: (draft: VariantDraft) => void;
  problem: Problem | undefined;
  prefix?: string;
}) {
  const { draft, onChange, problem } = props;
  const { currency } = useDashboard();
  const prefix = props.prefix ?? '';
  const error = (field: keyof VariantDraft) => fieldError(problem, `${prefix}${field}`);
  const text = (field: keyof VariantDraft) => ({
    name: field,
    value: String(draft[field]),
    error: error(field),
    onInput: (e: { currentTarget: HTMLInputElement }) => onChange({ ...draft, [field]: e.currentTarget.value }),
  });
  const money = { inputMode: 'decimal' as const, autoComplete: 'off' };
  return (
    <div class="fields">
      <Field label="Variant name" required {...text('name')} />
      <Field label={`Price (${currency})`} required {...money} {...text('price')} />
      <Field label={`Compare-at price (${currency})`} hint="Blank: none" {...money} {...text('compare_at_price')} />
      <Field label={`Cost price (${currency})`} hint="Internal, never shown" {...money} {...text('cost_price')} />
      <Field label="SKU" hint="Blank: none" {...text('sku')} />
      <Field label="Alias" hint="Blank on a new variant: generated" autoComplete="off" {...text('alias')} />
      <Field label="Stock on hand" type="number" min="0" step="1" {...text('stock')} />
      <Field
        label="Purchase limit per order"
        type="number"
        min="1"
        step="1"
        hint="Blank: none"
        {...text('purchase_limit_per_order')}
      />
      <Field label="Weight (grams)" inputMode="decimal" hint="Blank: none" {...text('weight_grams')} />
      <CheckboxField
        label="Track inventory"
        name="track_inventory"
        checked={draft.track_inventory}
        error={error('track_inventory')}
        onChange={(e) => onChange({ ...draft, track_inventory: e.currentTarget.checked })}
      />
      <CheckboxField
        label="Allow backorders"
        name="allow_backorder"
        checked={draft.allow_backorder}
        error={error('allow_backorder')}
        onChange={(e) => onChange({ ...draft, allow_backorder: e.currentTarget.checked })}
      />
    </div>
  );
}
