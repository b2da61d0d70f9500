import { useMarketCode, useShop } from '../context';
import { marketLabel, shownMarket } from '../market';

/**
 * The header's country/currency selector: the store's markets ("Europe · EUR"), the one chosen (or the default)
 * selected. Choosing one keeps it in this browser and prices the shop in it. Not shown while the store has one market.
 */
export function MarketChoice() {
  const { market, markets } = useShop();
  const chosen = useMarketCode();
  const shown = shownMarket(markets, chosen);
  if (markets.length < 2 || shown === undefined) return null;
  return (
    <span class="market-choice">
      {/* One header per page: a fixed id (useId here repeats the ids of the page's own fields). */}
      <label for="market-choice">Shop in</label>
      <select id="market-choice" value={shown.code} onChange={(e) => market.set(e.currentTarget.value)}>
        {markets.map((m) => (
          <option key={m.code} value={m.code} title={m.countries.join(', ')}>
            {marketLabel(m)}
          </option>
        ))}
      </select>
    </span>
  );
}
