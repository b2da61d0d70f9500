import { useEffect, useState } from 'preact/hooks';
import { countries } from '../../shared/countries';
import { useShop } from '../context';
import { marketOfCountry, shownMarket } from '../market';

/**
 * The shop's market follows the shipping country once the shopper gives one: a German address prices the checkout
 * in the market that serves Germany, as the service would (the `X-Market` header the shop sends comes first there, so
 * the shop moves it). The shopper may choose another in the header afterwards. Returns the sentence saying so.
 */
export function useCountryMarket(country: string | undefined): string | undefined {
  const { market, markets } = useShop();
  const [said, setSaid] = useState<string>();
  useEffect(() => {
    if (!country || markets.length < 2) return;
    const serving = marketOfCountry(markets, country);
    if (serving === undefined || serving.code === shownMarket(markets, market.get())?.code) return;
    market.set(serving.code);
    const name = countries().find((c) => c.code === country.toUpperCase())?.name ?? country;
    setSaid(`Shipping to ${name}: you now shop in ${serving.name}, in ${serving.currency}.`);
  }, [country, markets, market]);
  return said;
}
