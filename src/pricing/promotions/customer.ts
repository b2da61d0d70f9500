/**
 * Who a promotion's customer rules count, in one place: the estimate (its queries), placement's decision (earlier
 * placements of its batch) and placement's locked counts follow these. Emails are normalised (trimmed, lower-cased)
 * before they get here.
 */

/** A signed-in user (by id), or a guest known by email; a user's email too when a rule needs it. */
export interface Customer {
  userId: number | null;
  email: string | null;
}

/**
 * Whose redemptions a per-customer limit (`usage_limit_per_customer`) counts: a user's by id, a guest's by email (any
 * redemption made with it); nobody's without either.
 */
export function redemptionOwner(customer: Customer): { userId: number } | { email: string } | null {
  if (customer.userId !== null) return { userId: customer.userId };
  return customer.email === null ? null : { email: customer.email };
}

/** A use by `other` counts against `customer`'s per-customer limit. */
export function sameCustomer(customer: Customer, other: Customer): boolean {
  const owner = redemptionOwner(customer);
  if (owner === null) return false;
  return 'userId' in owner ? other.userId === owner.userId : other.email === owner.email;
}

/**
 * What makes an order the customer's for a first-order-only promotion (`new_customers_only`): its user id, and its
 * email (a user's guest orders count too).
 */
export function orderOwners(customer: Customer): ({ userId: number } | { email: string })[] {
  const owners: ({ userId: number } | { email: string })[] = [];
  if (customer.userId !== null) owners.push({ userId: customer.userId });
  if (customer.email !== null) owners.push({ email: customer.email });
  return owners;
}

/** An order by `other` makes `customer` no longer new. */
export function sameBuyer(customer: Customer, other: Customer): boolean {
  return orderOwners(customer).some((owner) =>
    'userId' in owner ? other.userId === owner.userId : other.email === owner.email,
  );
}
