import { useState } from 'preact/hooks';
import { ok } from '../../../api/client';
import { ErrorMessage, Field, Pager, SelectField } from '../../../shared/ui';
import { useDashboard } from '../../context';
import { usePages } from '../../use-loaded';
import { CheckboxField } from '../common/form-parts';
import type { Promotion } from './promotion-draft';
import { actionSummary, windowSummary } from './promotion-summary';

interface Filters {
  q: string;
  /** '': either; else the switch. */
  active: '' | 'true' | 'false';
  /** '': both; 'true': automatic only; 'false': codes only. */
  automatic: '' | 'true' | 'false';
  archived: boolean;
}
const noFilters: Filters = { q: '', active: '', automatic: '', archived: false };
const flag = (value: '' | 'true' | 'false') => (value === '' ? undefined : value === 'true');

/** /admin/promotions: promotions filtered by switch, kind (automatic or code), name and archive, a page at a time. */
export function PromotionList() {
  const { api, currency } = useDashboard();
  const [filters, setFilters] = useState(noFilters);
  const [draft, setDraft] = useState(noFilters);
  const q = filters.q.trim();
  const pages = usePages<Promotion>(
    (cursor) =>
      ok(
        api.GET('/discount/dashboard/api/promotions/', {
          params: {
            query: {
              limit: 20,
              archived: filters.archived,
              is_active: flag(filters.active),
              automatic: flag(filters.automatic),
              q: q === '' ? undefined : q,
              cursor,
            },
          },
        }),
      ),
    JSON.stringify({ ...filters, q }),
  );
  const { items: promotions, next, problem, more } = pages;

  return (
    <>
      <h1>Promotions</h1>
      <p>
        <a href="/admin/promotions/new">New promotion</a>
      </p>
      <form
        class="row filters"
        aria-label="Filter promotions"
        onSubmit={(e) => {
          e.preventDefault();
          setFilters(draft);
        }}
      >
        <Field
          label="Name contains"
          type="search"
          value={draft.q}
          onInput={(e) => setDraft({ ...draft, q: e.currentTarget.value })}
          error={undefined}
        />
        <SelectField
          label="Switch"
          value={draft.active}
          onChange={(e) => setDraft({ ...draft, active: e.currentTarget.value as Filters['active'] })}
        >
          <option value="">On or off</option>
          <option value="true">On</option>
          <option value="false">Off</option>
        </SelectField>
        <SelectField
          label="Kind"
          value={draft.automatic}
          onChange={(e) => setDraft({ ...draft, automatic: e.currentTarget.value as Filters['automatic'] })}
        >
          <option value="">Automatic and codes</option>
          <option value="true">Automatic</option>
          <option value="false">Codes</option>
        </SelectField>
        <CheckboxField
          label="Archived ones"
          checked={draft.archived}
          onChange={(e) => setDraft({ ...draft, archived: e.currentTarget.checked })}
        />
        <button type="submit">Filter</button>
      </form>
      <ErrorMessage problem={problem} />
      {promotions === undefined && problem === undefined && <p>Loading…</p>}
      {promotions?.length === 0 && <p>No promotions match.</p>}
      {promotions !== undefined && promotions.length > 0 && (
        <div class="table-wrap">
          <table class="reflow">
            <thead>
              <tr>
                <th>Name</th>
                <th>Code</th>
                <th>Gives</th>
                <th>When</th>
                <th class="num">Priority</th>
                <th class="num">Used</th>
                <th>State</th>
              </tr>
            </thead>
            <tbody>
              {promotions.map((p) => (
                <tr key={p.id}>
                  <td data-label="Name">
                    <a href={`/admin/promotions/${p.id}`}>{p.name}</a>
                  </td>
                  <td data-label="Code">{p.code ?? 'Automatic'}</td>
                  <td data-label="Gives">
                    <span>
                      {actionSummary(p.action, currency)}
                      {p.conditions.length > 0 && (
                        <small class="muted">
                          {' '}
                          ({p.conditions.length} {p.conditions.length === 1 ? 'condition' : 'conditions'})
                        </small>
                      )}
                    </span>
                  </td>
                  <td data-label="When">{windowSummary(p)}</td>
                  <td data-label="Priority" class="num">
                    {p.priority}
                  </td>
                  <td data-label="Used" class="num">
                    {p.times_used}
                  </td>
                  <td data-label="State">{p.archived_at ? 'Archived' : p.is_active ? 'On' : 'Off'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager nextCursor={next} onNext={more} />
    </>
  );
}
