import { useState } from 'preact/hooks';
import { ok } from '../../../api/client';
import { fieldError } from '../../../shared/problem';
import { ErrorMessage, Field } from '../../../shared/ui';
import { useDashboard } from '../../context';
import { ConfirmButton } from '../common/confirm-button';
import { StatusMessage } from '../common/form-parts';
import type { TaxClass } from '../common/tax-classes';
import { useWrite } from '../../use-write';

/** The tax classes, each renamed or deleted in its own form, and the form for a new one. */
export function TaxClasses(props: { classes: TaxClass[]; onChanged: () => void }) {
  const { api } = useDashboard();
  const [name, setName] = useState('');
  const write = useWrite();

  const create = (event: Event) => {
    event.preventDefault();
    void write
      .run(
        () => ok(api.POST('/tax/dashboard/api/tax-classes/', { body: { name } })),
        (created) => `Tax class ${created.name} created.`,
      )
      .then((created) => {
        if (!created) return;
        setName('');
        props.onChanged();
      });
  };

  return (
    <section aria-labelledby="tax-classes-heading">
      <h2 id="tax-classes-heading">Tax classes</h2>
      <p class="muted">A product is taxed at its class's rate for the address; a product without a class never is.</p>
      {props.classes.length === 0 && <p>No tax classes yet.</p>}
      <ul class="plain">
        {props.classes.map((c) => (
          <li key={c.id}>
            <TaxClassForm
              taxClass={c}
              onChanged={props.onChanged}
              onDeleted={(message) => {
                write.say(message);
                props.onChanged();
              }}
            />
          </li>
        ))}
      </ul>
      <form class="row filters" onSubmit={create} noValidate aria-label="New tax class">
        <Field
          label="New tax class name"
          name="name"
          value={name}
          onInput={(e) => setName(e.currentTarget.value)}
          error={fieldError(write.problem, 'name')}
        />
        <button type="submit" disabled={write.busy}>
          Create tax class
        </button>
      </form>
      <ErrorMessage problem={write.problem} />
      <StatusMessage text={write.done} />
    </section>
  );
}

function TaxClassForm(props: { taxClass: TaxClass; onChanged: () => void; onDeleted: (message: string) => void }) {
  const { taxClass } = props;
  const { api } = useDashboard();
  const [name, setName] = useState(taxClass.name);
  const write = useWrite();
  const path = { params: { path: { id: taxClass.id } } };

  const rename = (event: Event) => {
    event.preventDefault();
    void write
      .run(
        () => ok(api.PATCH('/tax/dashboard/api/tax-classes/{id}/', { ...path, body: { name } })),
        (renamed) => `Tax class renamed to ${renamed.name}.`,
      )
      .then((renamed) => renamed && props.onChanged());
  };
  // Once deleted, this form is gone: the list says so.
  const remove = () =>
    void write
      .run(() => ok(api.DELETE('/tax/dashboard/api/tax-classes/{id}/', path)).then(() => taxClass))
      .then((deleted) => deleted && props.onDeleted(`Tax class ${deleted.name} deleted.`));

  return (
    <form onSubmit={rename} noValidate aria-label={`Tax class ${taxClass.name}`}>
      <div class="row filters">
        <Field
          label={`Name of class ${taxClass.id}`}
          name="name"
          value={name}
          onInput={(e) => setName(e.currentTarget.value)}
          error={fieldError(write.problem, 'name')}
        />
        <button type="submit" disabled={write.busy}>
          Rename
        </button>
        <ConfirmButton
          label="Delete"
          warning="Its rates are deleted; its products become untaxed."
          disabled={write.busy}
          onConfirm={remove}
        />
      </div>
      <ErrorMessage problem={write.problem} />
      <StatusMessage text={write.done} />
    </form>
  );
}
