import { BlockList, isIP } from 'node:net';
import { lookup } from 'node:dns/promises';

/**
 * Addresses a webhook must never reach unless explicitly allowed: the service's own network,
 * and ranges that are never a public receiver. IPv6 forms that carry an IPv4 address inside
 * (IPv4-compatible, NAT64, 6to4, Teredo) are refused whole: through a translator they could
 * reach any IPv4 address. (IPv4-mapped ::ffff:0:0/96 is judged by its IPv4 part.)
 */
const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // shared address space (CGNAT)
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24], // TEST-NET-1
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // TEST-NET-2
  ['203.0.113.0', 24], // TEST-NET-3
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
  ['::', 96], // unspecified, loopback and IPv4-compatible (deprecated)
  ['64:ff9b::', 96], // NAT64, well-known prefix
  ['64:ff9b:1::', 48], // NAT64, local use
  ['100::', 64], // discard-only
  ['2001::', 32], // Teredo
  ['2001:2::', 48], // benchmarking
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8],
] as const) {
  PRIVATE.addSubnet(net, prefix, net.includes(':') ? 'ipv6' : 'ipv4');
}

/** https outside development and tests; private targets only with WEBHOOK_ALLOW_PRIVATE. */
export interface WebhookUrlRules {
  requireHttps: boolean;
  allowPrivate: boolean;
}

export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPrivateAddress(mapped[1]);
  const family = isIP(address);
  if (family === 0) return true; // not an address at all: refuse
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * SSRF guard: the scheme, no credentials, every address the host resolves to outside PRIVATE.
 * Returns the problem, or null. Delivery re-checks the address it connects to (DNS may change).
 */
export async function webhookUrlProblem(
  raw: string,
  rules: WebhookUrlRules,
): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && !rules.requireHttps)) {
    return rules.requireHttps ? 'must use https' : 'must use http or https';
  }
  if (url.username || url.password) return 'must not carry credentials';
  if (raw.length > 2000) return 'must be at most 2000 characters';
  if (rules.allowPrivate) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  } catch {
    return 'host does not resolve';
  }
  return addresses.some(isPrivateAddress)
    ? 'must not point at a private, loopback, link-local or reserved address (WEBHOOK_ALLOW_PRIVATE=true allows one: a receiver on this machine or network)'
    : null;
}
