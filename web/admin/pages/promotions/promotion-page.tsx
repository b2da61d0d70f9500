import { useRoute } from 'preact-iso';
import { ok } from '../../../api/client';
import { ErrorMessage } from '../../../shared/ui';
import { useDashboard } from '../../context';
import { ConfirmButton } from '../common/confirm-button';
import { StatusMessage } from '../common/form-parts';
import { useCreatedNotice } from '../common/created-notice';
import { useLoaded } from '../../use-loaded';
import { useWrite } from '../../use-write';
import { type Promotion, promotionDraft } from './promotion-draft';
import { PromotionForm } from './promotion-form';

/** /admin/promotions/:id: a promotion's form (read-only once archived), its use so far, and its archive. */
export function PromotionPage() {
  const { api } = useDashboard();
  const { params, query } = useRoute();
  const id = Number(params.id);
  const created = useCreatedNotice(query);
  const path = { params: { path: { id } } };
  const loaded = useLoaded<Promotion>(() => ok(api.GET('/discount/dashboard/api/promotions/{id}/', path)), String(id));
  const { data: promotion, problem, show: setPromotion } = loaded;
  const archive = useWrite();

  const archiveIt = () =>
    void archive.run(
      async () => {
        await ok(api.DELETE('/discount/dashboard/api/promotions/{id}/', path));
        setPromotion(await ok(api.GET('/discount/dashboard/api/promotions/{id}/', path)));
        return 'Promotion archived: it never applies again, and its code is free.';
      },
      (said) => said,
    );

  return (
    <>
      <p>
        <a href="/admin/promotions">All promotions</a>
      </p>
      <h1>{promotion?.name ?? 'Promotion'}</h1>
      <ErrorMessage problem={problem} />
      {promotion === undefined && problem === undefined && <p>Loading…</p>}
      {promotion && (
        <>
          {created && <StatusMessage text={`Promotion ${promotion.name} created.`} />}
          <p class="muted">
            {promotion.code === null ? 'Automatic' : `Code ${promotion.code}`} · used {promotion.times_used}{' '}
            {promotion.times_used === 1 ? 'time' : 'times'}
            {promotion.archived_at && ` · archived ${new Date(promotion.archived_at).toLocaleString()}`}
          </p>
          {promotion.archived_at && <p>An archived promotion can't be changed.</p>}
          <PromotionForm
            key={promotion.id}
            initial={promotionDraft(promotion)}
            stored={promotion}
            readOnly={promotion.archived_at !== null}
            submitLabel="Save promotion"
            onSave={async (body) => {
              const saved = await ok(api.PATCH('/discount/dashboard/api/promotions/{id}/', { ...path, body }));
              setPromotion(saved);
              return `Promotion ${saved.name} saved.`;
            }}
          />
          <ErrorMessage problem={archive.problem} />
          <StatusMessage text={archive.done} />
          {promotion.archived_at === null && (
            <section aria-labelledby="archive-heading">
              <h2 id="archive-heading">Archive</h2>
              <p class="hint">It stops applying for good; its orders and uses stay.</p>
              <ConfirmButton
                label="Archive promotion"
                warning="Archive it for good?"
                disabled={archive.busy}
                onConfirm={archiveIt}
              />
            </section>
          )}
        </>
      )}
    </>
  );
}
