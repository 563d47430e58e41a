import { BlockList, isIP } from 'node:net';
import { lookup } from 'node:dns/promises';

/** Addresses a webhook must never reach unless explicitly allowed: the service's own network. */
const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv6');
}

export interface WebhookUrlRules {
  requireHttps: boolean;
  allowPrivate: boolean;
}

/** https outside development and tests; private targets only when WEBHOOK_ALLOW_PRIVATE is on. */
export function webhookRules(config: {
  nodeEnv: string;
  webhooks: { allowPrivate: boolean };
}): WebhookUrlRules {
  return {
    requireHttps: !['development', 'test'].includes(config.nodeEnv),
    allowPrivate: config.webhooks.allowPrivate,
  };
}

export function isPrivateAddress(address: string): boolean {
  // An IPv4-mapped IPv6 address is judged by its IPv4 part.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPrivateAddress(mapped[1]);
  const family = isIP(address);
  if (family === 0) return true; // not an address at all: refuse
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * SSRF guard for a webhook URL: the scheme, no credentials, and every address its host
 * resolves to outside private, loopback and link-local ranges. Returns the problem, or null.
 * Delivery re-checks the address it actually connects to (DNS may change in between).
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
    ? 'must not point at a private, loopback or link-local address'
    : null;
}
