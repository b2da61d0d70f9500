import { useState } from 'preact/hooks';
import { ok } from '../../../api/client';
import { ErrorMessage } from '../../../shared/ui';
import { useDashboard } from '../../context';
import { useLoaded } from '../../use-loaded';
import { useWrite } from '../../use-write';
import { ConfirmButton } from '../common/confirm-button';
import { StatusMessage } from '../common/form-parts';
import { RecordTable } from '../common/record-table';
import type { Market } from './market-draft';
import { MarketForm } from './market-form';

/** "DE, FR, IT"; the default market serves every country no other market lists. */
function countriesText(market: Market): string {
  const listed = market.countries.join(', ');
  if (!market.is_default) return listed || 'None';
  return listed ? `${listed} and every country no other market lists` : 'Every country no other market lists';
}

/**
 * /admin/markets: the store's markets (countries sold to in one currency), the default first; create, edit and delete
 * one (the default market cannot be deleted: the API says so beside its row).
 */
export function MarketsPage() {
  const { api, currency } = useDashboard();
  const markets = useLoaded(() => ok(api.GET('/market/dashboard/api/markets/')), 'markets');
  const choices = useLoaded(
    () =>
      Promise.all([
        ok(api.GET('/payment/storefront/api/plugins/')),
        ok(api.GET('/shipping/dashboard/api/shipping-methods/')),
      ]),
    'market-choices',
  );
  const [editing, setEditing] = useState<number>();
  const remove = useWrite();
  const [removing, setRemoving] = useState<number>();

  const deleteMarket = (market: Market) => {
    setRemoving(market.id);
    void remove
      .run(
        () =>
          ok(api.DELETE('/market/dashboard/api/markets/{id}/', { params: { path: { id: market.id } } })).then(
            () => market,
          ),
        (deleted) => `Market ${deleted.name} deleted.`,
      )
      .then((deleted) => {
        if (!deleted) return;
        if (editing === deleted.id) setEditing(undefined);
        void markets.reload();
      });
  };

  const edited = markets.data?.find((m) => m.id === editing);
  const [plugins, methods] = choices.data ?? [[], []];
  return (
    <>
      <h1>Markets</h1>
      <p class="muted">
        Countries sold to in one currency. A product's price in a market is its explicit price in that currency (on the
        variant's page), else its {currency} price converted at the market's rate and rounded by its rule.
      </p>
      <ErrorMessage problem={markets.problem ?? choices.problem} />
      <StatusMessage text={remove.done} />
      {markets.data === undefined && markets.problem === undefined && <p>Loading…</p>}
      {markets.data && (
        <RecordTable
          caption="Markets"
          columns={['Code', 'Name', 'Currency', 'Countries', 'Rate', 'Actions']}
          numeric={['Rate']}
          reflow
        >
          {markets.data.map((market) => (
            <tr key={market.id}>
              <td data-label="Code">
                {market.code} {market.is_default && <span class="badge">Default</span>}
              </td>
              <td data-label="Name">{market.name}</td>
              <td data-label="Currency">
                {market.currency}
                {market.prices_include_tax ? ', tax included' : ''}
              </td>
              <td data-label="Countries">{countriesText(market)}</td>
              <td data-label="Rate" class="num">
                {market.exchange_rate}
              </td>
              <td data-label="Actions">
                <div class="row">
                  <button
                    type="button"
                    class="secondary"
                    aria-label={`Edit ${market.name}`}
                    onClick={() => setEditing(market.id)}
                  >
                    Edit
                  </button>
                  {!market.is_default && (
                    <ConfirmButton
                      label="Delete"
                      warning={`Delete ${market.name}? Its countries go back to the default market.`}
                      disabled={remove.busy}
                      onConfirm={() => deleteMarket(market)}
                    />
                  )}
                </div>
                {removing === market.id && <ErrorMessage problem={remove.problem} />}
              </td>
            </tr>
          ))}
        </RecordTable>
      )}
      {edited && (
        <MarketForm
          key={edited.id}
          market={edited}
          storeCurrency={currency}
          plugins={plugins}
          methods={methods}
          onSaved={() => void markets.reload()}
          onClose={() => setEditing(undefined)}
        />
      )}
      <MarketForm storeCurrency={currency} plugins={plugins} methods={methods} onSaved={() => void markets.reload()} />
    </>
  );
}
