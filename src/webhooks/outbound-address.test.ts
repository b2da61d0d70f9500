import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../shared/errors.js';
import { endpointUrl, guardedLookup, isNonPublicAddress, NonPublicAddressError } from './outbound-address.js';

describe('isNonPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '0.0.0.0',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '198.18.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    'fe80::1',
    'fe80::1%eth0',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::FFFF:10.0.0.1',
    '::ffff:169.254.169.254',
    '::ffff:0:10.0.0.1',
    '::127.0.0.1',
    '64:ff9b::7f00:1',
    '64:ff9b::192.168.0.1',
    '2002:7f00:1::1',
    '2001:db8::1',
    'not an address',
  ])('refuses %s', (address) => {
    expect(isNonPublicAddress(address)).toBe(true);
  });

  it.each([
    '8.8.8.8',
    '93.184.216.34',
    '172.32.0.1',
    '100.128.0.1',
    '11.0.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('lets %s through', (address) => {
    expect(isNonPublicAddress(address)).toBe(false);
  });
});

function refusal(url: string, allowPrivate = false): string {
  try {
    endpointUrl(url, { allowPrivate });
  } catch (err) {
    if (err instanceof DomainError && err.errors?.[0]?.field === 'url') return err.errors[0].message;
    throw err;
  }
  throw new Error(`${url} was accepted`);
}

describe('endpointUrl', () => {
  it('accepts http and https URLs, written canonically', () => {
    expect(endpointUrl('https://Hooks.Example.com/in?x=1', { allowPrivate: false })).toBe(
      'https://hooks.example.com/in?x=1',
    );
    expect(endpointUrl('http://hooks.example.com:8080', { allowPrivate: false })).toBe(
      'http://hooks.example.com:8080/',
    );
  });

  it.each(['ftp://hooks.example.com/', 'file:///etc/passwd', 'javascript:alert(1)', 'gopher://x/'])(
    'refuses the scheme of %s',
    (url) => {
      expect(refusal(url, true)).toMatch(/must use http or https/);
    },
  );

  it.each(['not a url', '/relative/path', 'https://'])('refuses %s as no absolute URL', (url) => {
    expect(refusal(url, true)).toMatch(/absolute http/);
  });

  it('refuses credentials in the URL', () => {
    expect(refusal('https://user:pass@hooks.example.com/', true)).toMatch(/user name or password/);
  });

  it.each([
    'http://127.0.0.1/',
    'http://127.1/',
    'http://2130706433/',
    'http://0x7f.0.0.1/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://10.1.2.3/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[fd00::1]/',
    'http://localhost:3000/',
    'http://api.localhost/',
    'http://0.0.0.0/',
  ])('refuses %s while private addresses are not allowed', (url) => {
    expect(refusal(url)).toMatch(/not a public address/);
    expect(endpointUrl(url, { allowPrivate: true })).toMatch(/^http:/);
  });
});

describe('guardedLookup', () => {
  const lookupVia = (addresses: LookupAddress[], allowPrivate = false) =>
    guardedLookup({ allowPrivate, resolve: async () => addresses });
  const run = (lookup: ReturnType<typeof guardedLookup>, options: { all?: boolean; family?: number }) =>
    new Promise<{ err: Error | null; address: unknown; family?: number }>((resolve) => {
      lookup('hooks.example.com', options, (err, address, family) => resolve({ err, address, family }));
    });

  it('gives the addresses of a public name, as one or all', async () => {
    const found = [
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1::1', family: 6 },
    ];
    expect(await run(lookupVia(found), {})).toEqual({ err: null, address: '93.184.216.34', family: 4 });
    expect(await run(lookupVia(found), { all: true })).toEqual({ err: null, address: found, family: undefined });
    expect(await run(lookupVia(found), { family: 6 })).toMatchObject({ address: '2606:2800:220:1::1', family: 6 });
  });

  it('refuses a name when any of its addresses is not public', async () => {
    const found = [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ];
    const { err } = await run(lookupVia(found), { all: true });
    expect(err).toBeInstanceOf(NonPublicAddressError);
    expect(err?.message).toBe(
      'hooks.example.com resolves to 10.0.0.7, not a public address (WEBHOOK_ALLOW_PRIVATE is false)',
    );
  });

  it('lets private addresses through when they are allowed', async () => {
    expect(await run(lookupVia([{ address: '127.0.0.1', family: 4 }], true), {})).toMatchObject({
      err: null,
      address: '127.0.0.1',
    });
  });
});
