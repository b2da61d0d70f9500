import { useLocation } from 'preact-iso';
import { ok } from '../../../api/client';
import { useDashboard } from '../../context';
import { emptyPromotion } from './promotion-draft';
import { PromotionForm } from './promotion-form';

/** /admin/promotions/new: the form for a new promotion; on success, its page. */
export function NewPromotion() {
  const { api } = useDashboard();
  const { route } = useLocation();
  return (
    <>
      <p>
        <a href="/admin/promotions">All promotions</a>
      </p>
      <h1>New promotion</h1>
      <PromotionForm
        initial={emptyPromotion}
        submitLabel="Create promotion"
        onSave={async (body) => {
          const created = await ok(api.POST('/discount/dashboard/api/promotions/', { body }));
          route(`/admin/promotions/${created.id}?created=1`);
          return `Promotion ${created.name} created.`;
        }}
      />
    </>
  );
}
