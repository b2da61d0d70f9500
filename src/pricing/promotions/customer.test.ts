import { describe, expect, it } from 'vitest';
import { orderOwners, redemptionOwner, sameBuyer, sameCustomer } from './customer.js';

const user = (userId: number, email: string | null = null) => ({ userId, email });
const guest = (email: string | null) => ({ userId: null, email });

describe('who a per-customer limit counts', () => {
  it("counts a user's uses by id, a guest's by email, nobody's without either", () => {
    expect(redemptionOwner(user(4, 'ann@example.com'))).toEqual({ userId: 4 });
    expect(redemptionOwner(guest('ann@example.com'))).toEqual({ email: 'ann@example.com' });
    expect(redemptionOwner(guest(null))).toBeNull();
  });

  it("takes the same user's use, not a guest's with the user's email", () => {
    expect(sameCustomer(user(4, 'ann@example.com'), user(4))).toBe(true);
    expect(sameCustomer(user(4, 'ann@example.com'), guest('ann@example.com'))).toBe(false);
    expect(sameCustomer(user(4), user(5))).toBe(false);
  });

  it("takes any use made with a guest's email, signed in or not", () => {
    expect(sameCustomer(guest('ann@example.com'), guest('ann@example.com'))).toBe(true);
    expect(sameCustomer(guest('ann@example.com'), user(4, 'ann@example.com'))).toBe(true);
    expect(sameCustomer(guest('ann@example.com'), guest('bob@example.com'))).toBe(false);
    expect(sameCustomer(guest(null), guest(null))).toBe(false);
  });
});

describe('who has ordered before, for a first order only', () => {
  it('is the same user or the same email', () => {
    expect(orderOwners(user(4, 'ann@example.com'))).toEqual([{ userId: 4 }, { email: 'ann@example.com' }]);
    expect(sameBuyer(user(4, 'ann@example.com'), guest('ann@example.com'))).toBe(true);
    expect(sameBuyer(user(4), user(4, 'other@example.com'))).toBe(true);
    expect(sameBuyer(guest('ann@example.com'), user(5, 'ann@example.com'))).toBe(true);
    expect(sameBuyer(user(4), user(5))).toBe(false);
    expect(sameBuyer(guest(null), guest(null))).toBe(false);
  });
});
