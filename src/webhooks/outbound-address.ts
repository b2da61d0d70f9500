import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { invalidField } from '../shared/errors.js';

/*
 * Where outbound webhooks may go (SSRF). Unless WEBHOOK_ALLOW_PRIVATE is true, an endpoint must be on a public
 * address: a URL naming a non-public IP (or `localhost`) is refused when it is saved, and at every delivery each
 * address the host resolves to is checked, inside the connection's own lookup, so the address checked is the address
 * connected to (a name that resolves to a public address when saved and to 127.0.0.1 later is caught).
 */

/** Not public: where a webhook may not go unless private addresses are allowed. */
const NON_PUBLIC_IPV4: [string, number][] = [
  ['0.0.0.0', 8], // "this network"; 0.0.0.0 reaches the local host
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata services
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relays (deprecated)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];
const NON_PUBLIC_IPV6: [string, number][] = [
  ['::', 96], // unspecified, loopback, IPv4-compatible (deprecated)
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments (Teredo, benchmarking, ORCHID)
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
];

const nonPublic = new BlockList();
for (const [network, prefix] of NON_PUBLIC_IPV4) nonPublic.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of NON_PUBLIC_IPV6) nonPublic.addSubnet(network, prefix, 'ipv6');

/** The eight 16-bit groups of an IPv6 address (`::` expanded, a trailing dotted IPv4 read as two groups). */
function ipv6Groups(address: string): number[] {
  const parse = (part: string) =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [Number.parseInt(group, 16)];
          const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const [head = '', tail] = address.split('::');
  const before = parse(head);
  const after = tail === undefined ? [] : parse(tail);
  return [...before, ...new Array<number>(8 - before.length - after.length).fill(0), ...after];
}

const dotted = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

/** The IPv4 address an IPv6 one carries and reaches: IPv4-mapped, IPv4-translated, NAT64 and 6to4 forms. */
function embeddedIpv4(address: string): string | undefined {
  const [g0, g1, g2, g3, g4, g5, g6 = 0, g7 = 0] = ipv6Groups(address.toLowerCase());
  const zeros = (...groups: (number | undefined)[]) => groups.every((g) => g === 0);
  if (zeros(g0, g1, g2, g3, g4) && g5 === 0xffff) return dotted(g6, g7); // ::ffff:a.b.c.d
  if (zeros(g0, g1, g2, g3, g5) && g4 === 0xffff) return dotted(g6, g7); // ::ffff:0:a.b.c.d
  if (g0 === 0x64 && g1 === 0xff9b && zeros(g2, g3, g4, g5)) return dotted(g6, g7); // 64:ff9b::a.b.c.d
  if (g0 === 0x2002) return dotted(g1 ?? 0, g2 ?? 0); // 2002:aabb:ccdd::
  return undefined;
}

/** Whether an IP address (v4 or v6, without brackets) is anything but a public unicast address. */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return nonPublic.check(address, 'ipv4');
  if (family !== 6) return true;
  const unscoped = address.replace(/%.*$/, '');
  if (nonPublic.check(unscoped, 'ipv6')) return true;
  const inner = embeddedIpv4(unscoped);
  return inner !== undefined && nonPublic.check(inner, 'ipv4');
}

/** Names that always mean this machine (RFC 6761), refused without asking DNS. */
const isLocalhostName = (hostname: string) => /(^|\.)localhost\.?$/i.test(hostname);

/** A URL's host that is refused before any DNS: `localhost` and non-public literal addresses. */
const refusedAsWritten = (host: string) => isLocalhostName(host) || (isIP(host) !== 0 && isNonPublicAddress(host));

/** The host of a URL as an address or name: `[::1]` → `::1`. */
const unbracketed = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1');

export interface OutboundPolicy {
  /** WEBHOOK_ALLOW_PRIVATE */
  allowPrivate: boolean;
}

/** The URL an endpoint is saved with: http(s), no credentials, and (unless allowed) no non-public literal address. */
export function endpointUrl(text: string, policy: OutboundPolicy): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalidField('url', 'must be an absolute http:// or https:// URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalidField('url', `must use http or https (got ${url.protocol.slice(0, -1)})`);
  }
  if (url.username !== '' || url.password !== '') {
    throw invalidField('url', 'must not carry a user name or password (deliveries are signed instead)');
  }
  const host = unbracketed(url.hostname);
  if (!policy.allowPrivate && refusedAsWritten(host)) {
    throw invalidField('url', `${host} is not a public address (WEBHOOK_ALLOW_PRIVATE is false)`);
  }
  return url.href;
}

/** Thrown (to the connection) when a delivery's host is or resolves to a non-public address. */
export class NonPublicAddressError extends Error {
  readonly code = 'ERR_WEBHOOK_NON_PUBLIC_ADDRESS';
  constructor(hostname: string, address: string) {
    super(
      hostname === address
        ? `${address} is not a public address (WEBHOOK_ALLOW_PRIVATE is false)`
        : `${hostname} resolves to ${address}, not a public address (WEBHOOK_ALLOW_PRIVATE is false)`,
    );
    this.name = 'NonPublicAddressError';
  }
}

/** Every address a host name resolves to (tests put a resolver of their own here). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

/**
 * The lookup the connection uses: resolves every address of the host and, unless private addresses are allowed,
 * refuses the connection when any of them is not public.
 */
export function guardedLookup(policy: OutboundPolicy & { resolve: Resolver }): LookupFunction {
  return (hostname, options, callback) => {
    policy.resolve(hostname).then(
      (found) => {
        const wanted = options.family === 4 || options.family === 6 ? options.family : undefined;
        const addresses = wanted === undefined ? found : found.filter((a) => a.family === wanted);
        const refused = policy.allowPrivate ? undefined : found.find((a) => isNonPublicAddress(a.address));
        const first = addresses[0];
        if (refused) callback(new NonPublicAddressError(hostname, refused.address), '');
        else if (!first) callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
        else if (options.all) callback(null, addresses);
        else callback(null, first.address, first.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, ''),
    );
  };
}

/** Checks a literal address a URL names (a connection to an IP literal asks no lookup). */
export function assertPublicLiteral(hostname: string, policy: OutboundPolicy): void {
  const host = unbracketed(hostname);
  if (!policy.allowPrivate && refusedAsWritten(host)) throw new NonPublicAddressError(host, host);
}
