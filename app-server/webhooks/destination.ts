import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { invalidInput } from '../../domain/shared/errors.ts';

/** Addresses a webhook may not reach unless WEBHOOK_ALLOW_PRIVATE is on: loopback, private, link-local, reserved. */
// Two lists: a BlockList checks an IPv4 address against its IPv6 rules too (as ::ffff:a.b.c.d), so one list with
// ::ffff:0:0/96 would refuse every IPv4 address.
const refusedV4 = new BlockList();
const refusedV6 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  refusedV4.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['::ffff:0:0', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 32],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  refusedV6.addSubnet(net, prefix, 'ipv6');

/** Whether an IP address is loopback, private, link-local or otherwise not a public host. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return refusedV4.check(address, 'ipv4');
  if (family === 6) return refusedV6.check(address, 'ipv6');
  return true;
}

/** The host of a URL as DNS and `isIP` read it (an IPv6 literal without its brackets). */
const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http(s).request that resolves every address of the host and refuses the connection when any of
 * them is private: checked at connect time, so a name that changes its answer after the endpoint was saved (DNS
 * rebinding) still cannot reach the inside.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const inside = addresses.find((a) => isPrivateAddress(a.address));
      if (inside && !allowPrivate)
        return callback(
          Object.assign(new Error(`${hostname} resolves to a private address (${inside.address})`), {
            code: 'EPRIVATE',
          }),
          [],
        );
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
      callback(null, first.address, first.family);
    });
  };
}

/**
 * Refuses (422, naming `url`) a webhook URL that is not http(s) or whose host is, or resolves to, a private or
 * loopback address, unless private destinations are allowed. Every address the name resolves to is checked.
 */
export async function checkDestination(raw: string, allowPrivate: boolean): Promise<URL> {
  const url = new URL(raw);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw invalidInput('url must be an http:// or https:// URL');
  if (url.username || url.password) throw invalidInput('url must not carry a user name or password');
  if (allowPrivate) return url;
  const host = hostOf(url);
  if (isIP(host)) {
    if (isPrivateAddress(host))
      throw invalidInput(`url points to a private or loopback address (${host}); webhooks go to public hosts only`);
    return url;
  }
  const addresses = await new Promise<LookupAddress[]>((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (error, found) => (error ? reject(error) : resolve(found))),
  ).catch(() => {
    throw invalidInput(`url host ${host} could not be resolved`);
  });
  const inside = addresses.find((a) => isPrivateAddress(a.address));
  if (inside)
    throw invalidInput(
      `url host ${host} resolves to a private or loopback address (${inside.address}); webhooks go to public hosts only`,
    );
  return url;
}

export { hostOf };
