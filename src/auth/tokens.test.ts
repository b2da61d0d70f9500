import { afterEach, describe, expect, it, vi } from 'vitest';
import { DomainError } from '../shared/errors.js';
import { ACCESS_TOKEN_TTL_SECONDS, createTokenService } from './tokens.js';

const tokens = createTokenService('unit-test-secret-of-at-least-32-bytes!!');

afterEach(() => {
  vi.useRealTimers();
});

describe('token service', () => {
  it('verifies an access token and gives back its principal, also when asked again', async () => {
    const token = await tokens.signAccess({ userId: 7, role: 'admin' });
    expect(await tokens.verifyAccess(token)).toEqual({ userId: 7, role: 'admin' });
    expect(await tokens.verifyAccess(token)).toEqual({ userId: 7, role: 'admin' });
  });

  it('refuses a remembered access token once it has expired', async () => {
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') });
    const token = await tokens.signAccess({ userId: 8, role: 'customer' });
    expect(await tokens.verifyAccess(token)).toEqual({ userId: 8, role: 'customer' });
    vi.setSystemTime(new Date(Date.parse('2026-01-01T00:00:00Z') + (ACCESS_TOKEN_TTL_SECONDS + 1) * 1000));
    await expect(tokens.verifyAccess(token)).rejects.toBeInstanceOf(DomainError);
  });

  it('keeps access and refresh tokens apart', async () => {
    const access = await tokens.signAccess({ userId: 9, role: 'customer' });
    const refresh = await tokens.signRefresh({
      userId: 9,
      tokenId: '00000000-0000-4000-8000-000000000000',
      familyId: '00000000-0000-4000-8000-000000000001',
    });
    await expect(tokens.verifyRefresh(access)).rejects.toBeInstanceOf(DomainError);
    await expect(tokens.verifyAccess(refresh)).rejects.toBeInstanceOf(DomainError);
    expect(await tokens.verifyRefresh(refresh)).toMatchObject({ userId: 9 });
  });
});
