import { SelectField } from '../../../shared/ui';
import { useTaxClasses } from './tax-classes';

/** Picks a product's or shipping method's tax class; "None" is null (a product without one is never taxed). */
export function TaxClassSelect(props: {
  value: number | null;
  onChange: (id: number | null) => void;
  error: string | undefined;
  none?: string;
}) {
  const { data: classes, problem } = useTaxClasses();
  return (
    <SelectField
      label="Tax class"
      name="tax_class_id"
      value={props.value === null ? '' : String(props.value)}
      onChange={(e) => props.onChange(e.currentTarget.value === '' ? null : Number(e.currentTarget.value))}
      error={props.error ?? (problem && `Tax classes could not be loaded: ${problem.title}`)}
    >
      <option value="">{props.none ?? 'None (not taxed)'}</option>
      {classes?.map((c) => (
        <option key={c.id} value={String(c.id)}>
          {c.name}
        </option>
      ))}
    </SelectField>
  );
}
