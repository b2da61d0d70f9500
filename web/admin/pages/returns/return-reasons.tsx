import { useState } from 'preact/hooks';
import { type Answer, ok } from '../../../api/client';
import { fieldError, problemBeyondFields } from '../../../shared/problem';
import { ErrorMessage, Field } from '../../../shared/ui';
import { useDashboard } from '../../context';
import { useLoaded } from '../../use-loaded';
import { useWrite } from '../../use-write';
import { StatusMessage } from '../common/form-parts';

type Reason = Answer<'/order/dashboard/api/return-reasons/', 'get'>['items'][number];

/** One reason: its label renamed in place, and switched off (no longer offered) or on again. Never deleted. */
function ReasonRow(props: { reason: Reason; onChanged: () => Promise<void> }) {
  const { reason } = props;
  const { api } = useDashboard();
  const write = useWrite();
  const [label, setLabel] = useState(reason.label);
  const change = (body: { label?: string; active?: boolean }, said: (r: Reason) => string) =>
    void write
      .run(
        () =>
          ok(
            api.PATCH('/order/dashboard/api/return-reasons/{code}/', { params: { path: { code: reason.code } }, body }),
          ),
        said,
      )
      .then((changed) => (changed ? props.onChanged() : undefined));
  const rename = (event: Event) => {
    event.preventDefault();
    change({ label: label.trim() }, (r) => `Renamed: customers read “${r.label}”.`);
  };
  return (
    <li class="panel">
      <form class="row filters" onSubmit={rename} noValidate aria-label={`Return reason ${reason.code}`}>
        <Field
          label={`Label of ${reason.code}${reason.active ? '' : ' (switched off)'}`}
          value={label}
          onInput={(e) => setLabel(e.currentTarget.value)}
          error={fieldError(write.problem, 'label')}
        />
        <div class="row">
          <button type="submit" disabled={write.busy || label.trim() === reason.label}>
            Rename
          </button>
          <button
            type="button"
            class="secondary"
            disabled={write.busy}
            onClick={() =>
              change({ active: !reason.active }, (r) =>
                r.active ? `${r.code} is offered again.` : `${r.code} is switched off: no longer offered.`,
              )
            }
          >
            {reason.active ? 'Switch off' : 'Switch on'}
            <span class="visually-hidden"> {reason.code}</span>
          </button>
        </div>
      </form>
      <StatusMessage text={write.done} />
      <ErrorMessage problem={problemBeyondFields(write.problem, ['label'])} />
    </li>
  );
}

/**
 * The reasons a return may give, in the order customers see them: each renamed or switched off in place (a reason is
 * never deleted: returns keep naming it), and a new one added with its code, label and place.
 */
export function ReturnReasons() {
  const { api } = useDashboard();
  const reasons = useLoaded(() => ok(api.GET('/order/dashboard/api/return-reasons/')), 'reasons');
  const write = useWrite();
  const [draft, setDraft] = useState({ code: '', label: '', position: '' });
  const { reload } = reasons;

  const add = (event: Event) => {
    event.preventDefault();
    const position = draft.position.trim() === '' ? undefined : Number(draft.position);
    const body = {
      code: draft.code.trim(),
      label: draft.label.trim(),
      ...(position === undefined ? {} : { position }),
    };
    void write
      .run(
        () => ok(api.POST('/order/dashboard/api/return-reasons/', { body })),
        (r) => `Return reason ${r.code} added.`,
      )
      .then(async (made) => {
        if (!made) return;
        setDraft({ code: '', label: '', position: '' });
        await reload();
      });
  };
  const set = (name: keyof typeof draft) => (e: { currentTarget: { value: string } }) =>
    setDraft({ ...draft, [name]: e.currentTarget.value });

  return (
    <>
      <p>
        <a href="/admin/returns">All returns</a>
      </p>
      <h1>Return reasons</h1>
      <p class="muted">What a customer chooses from when returning an item, in this order.</p>
      <ErrorMessage problem={reasons.problem} />
      {reasons.data === undefined && reasons.problem === undefined && <p>Loading…</p>}
      <ul class="plain">
        {reasons.data?.items.map((r) => (
          <ReasonRow key={`${r.code}:${r.label}:${r.active}`} reason={r} onChanged={reload} />
        ))}
      </ul>
      <h2>Add a reason</h2>
      <form class="fields" onSubmit={add} noValidate aria-label="New return reason">
        <Field
          label="Code"
          hint="Lower-case letters, digits and _; never changes"
          value={draft.code}
          onInput={set('code')}
          error={fieldError(write.problem, 'code')}
        />
        <Field label="Label" value={draft.label} onInput={set('label')} error={fieldError(write.problem, 'label')} />
        <Field
          label="Place (optional)"
          inputMode="numeric"
          value={draft.position}
          onInput={set('position')}
          error={fieldError(write.problem, 'position')}
        />
        <div class="row">
          <button type="submit" disabled={write.busy}>
            Add reason
          </button>
        </div>
      </form>
      <StatusMessage text={write.done} />
      <ErrorMessage problem={problemBeyondFields(write.problem, ['code', 'label', 'position'])} />
    </>
  );
}
