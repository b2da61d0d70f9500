import { useLocation } from 'preact-iso';
import { useEffect, useRef, useState } from 'preact/hooks';
import { asProblem, type Problem } from '../../shared/problem';
import { ErrorMessage, Field, Money } from '../../shared/ui';
import { type AddressForm, addressPayload, emptyAddress, type OrderPayload } from '../checkout/address';
import { AddressFields } from '../checkout/address-fields';
import { checkoutErrors } from '../checkout/checkout-errors';
import { newIdempotencyKey, placeOrder } from '../checkout/place-order';
import { ShippingMethodChoice, useShippingMethods } from '../checkout/shipping-methods';
import { StoredAddressChoice, useStoredAddresses } from '../checkout/stored-addresses';
import { useCountryMarket } from '../checkout/use-country-market';
import { useEstimate } from '../checkout/use-estimate';
import { OrderFigures } from '../components/order-figures';
import { useCart, useSession, useShop } from '../context';
import { notePlaced } from '../placed-orders';

/**
 * What the checkout sends: the order to estimate and place (its lines, where it goes, the shipping method and code
 * chosen), and the order whose shipping methods are listed (only where it goes, as far as the address is known).
 */
function checkoutPayloads(input: {
  variants: OrderPayload['variants'];
  storedAddress: { id: number } | undefined;
  address: AddressForm;
  choices: { methodId: number | undefined; appliedCode: string };
}) {
  const { variants, storedAddress, address } = input;
  const { methodId, appliedCode } = input.choices;
  let destination: Partial<OrderPayload> = {};
  if (storedAddress) destination = { shipping_address_id: storedAddress.id };
  else if (address.country) destination = { shipping_address: addressPayload(address) };
  const order: OrderPayload | undefined = variants.length > 0 ? { variants, ...destination } : undefined;
  const payload: OrderPayload | undefined = order && {
    ...order,
    ...(methodId === undefined ? {} : { shipping_method_id: methodId }),
    ...(appliedCode ? { promocode: appliedCode } : {}),
  };
  const place = { country: address.country, ...(address.state ? { state: address.state } : {}) };
  const shippingOrder = { variants, ...(storedAddress ? destination : { shipping_address: place }) };
  return { order, payload, shippingOrder };
}

/** What the shopper must still choose before placing: a country, and a shipping method where there are some. */
function missingChoices(input: {
  where: unknown;
  methods: readonly unknown[] | undefined;
  methodId: number | undefined;
}) {
  return {
    country: input.where === undefined ? 'Choose a country.' : undefined,
    method:
      input.methods && input.methods.length > 0 && input.methodId === undefined
        ? 'Choose a shipping method.'
        : undefined,
  };
}

export function CheckoutPage() {
  const { api, cart } = useShop();
  const current = useCart();
  const signedIn = useSession() !== undefined;
  const { route } = useLocation();
  const [cartLoaded, setCartLoaded] = useState(false);
  const stored = useStoredAddresses(signedIn);
  const [deliverTo, setDeliverTo] = useState<number | 'new'>('new');
  const [email, setEmail] = useState('');
  const [address, setAddress] = useState<AddressForm>(emptyAddress);
  const [methodId, setMethodId] = useState<number>();
  const [codeInput, setCodeInput] = useState('');
  const [appliedCode, setAppliedCode] = useState('');
  const [codeError, setCodeError] = useState<string>();
  const [placing, setPlacing] = useState(false);
  const [placeProblem, setPlaceProblem] = useState<Problem>();
  const [totalChanged, setTotalChanged] = useState<{ total: string; currency: string }>();
  const [checkHint, setCheckHint] = useState<{ country?: string; method?: string }>({});
  // One key for every try of this checkout: a double click or a retry never makes a second order.
  const idempotencyKey = useRef(newIdempotencyKey());
  const placingNow = useRef(false);

  useEffect(() => {
    document.title = 'Checkout';
    void cart.load().finally(() => setCartLoaded(true));
  }, [cart]);
  useEffect(() => {
    const preferred = stored?.find((a) => a.is_default) ?? stored?.[0];
    setDeliverTo(preferred ? preferred.id : 'new');
  }, [stored]);

  const items = current?.items ?? [];
  const variants = items.map((line) => ({ alias: line.alias, quantity: line.quantity }));
  const storedAddress = deliverTo === 'new' ? undefined : stored?.find((a) => a.id === deliverTo);
  const where = storedAddress ?? (address.country ? address : undefined);
  const { order, payload, shippingOrder } = checkoutPayloads({
    variants,
    storedAddress,
    address: signedIn ? address : { ...address, email },
    choices: { methodId, appliedCode },
  });

  const marketNote = useCountryMarket(where?.country);
  const live = useEstimate(payload);
  const shipping = useShippingMethods({
    order: order && shippingOrder,
    where: where && { country: where.country, state: where.state },
  });

  // The first method that can take the order, unless the shopper chose one that still can.
  useEffect(() => {
    const usable = shipping.methods?.filter((m) => m.problem === undefined) ?? [];
    if (!usable.some((m) => m.method.id === methodId)) setMethodId(usable[0]?.method.id);
  }, [shipping.methods]);

  const problem = placeProblem ?? live.problem;
  // A code that can't be used is said beside the code field, and the figures are worked out without it.
  useEffect(() => {
    if (problem?.code === 'promo_code_invalid') {
      setCodeError(problem.detail ?? problem.title);
      setAppliedCode('');
    }
  }, [problem]);

  const { countryError, lineError, emailError, general } = checkoutErrors({
    problem,
    hint: checkHint,
    noShipping: shipping.methods?.length === 0,
  });

  const applyCode = (event: Event) => {
    event.preventDefault();
    setCodeError(undefined);
    setPlaceProblem(undefined);
    setAppliedCode(codeInput.trim());
  };

  const place = async () => {
    if (placingNow.current || payload === undefined || live.estimate === undefined) return;
    const hint = missingChoices({ where, methods: shipping.methods, methodId });
    setCheckHint(hint);
    if (hint.country || hint.method) return;
    placingNow.current = true;
    setPlacing(true);
    setPlaceProblem(undefined);
    setTotalChanged(undefined);
    const expected = live.estimate.total;
    const expectedCurrency = live.estimate.currency;
    try {
      const placed = await placeOrder({
        api,
        cart,
        payload: { ...payload, expected_total: expected },
        idempotencyKey: idempotencyKey.current,
      });
      notePlaced(placed.order_alias);
      route(`/orders/${placed.order_alias}`);
      return;
    } catch (err) {
      const refused = asProblem(err);
      if (refused.code === 'total_changed') {
        setTotalChanged({ total: expected, currency: expectedCurrency });
        live.refresh();
      } else {
        if (refused.code === 'idempotency_key_reused') idempotencyKey.current = newIdempotencyKey();
        setPlaceProblem(refused);
      }
    }
    placingNow.current = false;
    setPlacing(false);
  };

  if (!cartLoaded && current === undefined) return <p>Loading…</p>;
  if (items.length === 0) {
    return (
      <>
        <h1>Checkout</h1>
        <p>
          Your cart is empty. <a href="/">See the products</a>.
        </p>
      </>
    );
  }
  return (
    <>
      <h1>Checkout</h1>
      {!signedIn && (
        <p class="muted">
          Have an account? <a href="/sign-in?next=/checkout">Sign in</a> (your cart comes with you).
        </p>
      )}
      <div>
        {!signedIn && (
          <section aria-labelledby="contact">
            <h2 id="contact">Contact</h2>
            <Field
              label="Email"
              type="email"
              autocomplete="email"
              required
              value={email}
              error={emailError}
              hint="For the order confirmation."
              onInput={(e) => {
                setEmail(e.currentTarget.value);
                setPlaceProblem(undefined);
              }}
            />
          </section>
        )}
        <section aria-labelledby="address">
          <h2 id="address">Shipping address</h2>
          {stored && stored.length > 0 && (
            <StoredAddressChoice
              addresses={stored}
              chosen={deliverTo}
              onChoose={setDeliverTo}
              error={storedAddress ? countryError : undefined}
            />
          )}
          {deliverTo === 'new' && (
            <AddressFields
              value={address}
              onChange={(next) => {
                setAddress(next);
                setPlaceProblem(undefined);
                setCheckHint({});
              }}
              problem={problem}
              countryError={countryError}
            />
          )}
          {marketNote && (
            <p role="status" class="ok">
              {marketNote}
            </p>
          )}
        </section>
        <section aria-labelledby="shipping">
          <h2 id="shipping">Shipping</h2>
          <ShippingMethodChoice
            methods={shipping.methods}
            problem={shipping.problem}
            hasCountry={where !== undefined}
            chosen={methodId}
            onChoose={setMethodId}
            error={checkHint.method}
          />
        </section>
      </div>
      <section aria-labelledby="promo">
        <h2 id="promo">Promo code</h2>
        <form class="row code" onSubmit={applyCode}>
          <Field
            label="Promo code"
            value={codeInput}
            error={codeError}
            autocomplete="off"
            onInput={(e) => setCodeInput(e.currentTarget.value)}
          />
          <button type="submit" class="secondary">
            Apply
          </button>
        </form>
        {appliedCode && (
          <p role="status" class="ok">
            Code {appliedCode.toUpperCase()} applied.
          </p>
        )}
      </section>
      <section aria-labelledby="summary" aria-live="polite">
        <h2 id="summary">Order summary</h2>
        {live.estimate ? (
          <OrderFigures figures={live.estimate} lineError={lineError} awaitingAddress={where === undefined} />
        ) : (
          !live.problem && <p>Loading…</p>
        )}
        {totalChanged && live.estimate && (
          <p role="alert" class="error">
            The total changed from <Money amount={totalChanged.total} currency={totalChanged.currency} /> to{' '}
            <Money amount={live.estimate.total} currency={live.estimate.currency} />. Check the figures above, then
            place the order again.
          </p>
        )}
      </section>
      <ErrorMessage problem={general} />
      <button
        type="button"
        class="primary"
        disabled={placing || live.estimate === undefined}
        onClick={() => void place()}
      >
        {placing ? 'Placing order…' : 'Place order'}
      </button>
    </>
  );
}
