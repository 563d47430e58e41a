import { isIPv4, isIPv6 } from 'node:net';
import type { Request } from 'express';

/**
 * The key a per-address limit counts under (SPEC 11.7): an IPv4 address; an IPv6 address's /64
 * (one site's allocation, whose addresses it picks freely); the IPv4 an IPv4-mapped one carries.
 */
export function addressKey(address: string): string {
  if (isIPv4(address)) return address;
  const groups = isIPv6(address) ? ipv6Groups(address) : null;
  if (!groups) return address;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff)
    return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join('.');
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The address key of a request's client (req.ip: the peer, or X-Forwarded-For's per TRUST_PROXY). */
export const clientAddressKey = (req: Request): string =>
  addressKey(req.ip ?? req.socket.remoteAddress ?? 'unknown');

/** The eight 16-bit groups of a valid IPv6 address (a zone and a dotted IPv4 tail allowed). */
function ipv6Groups(address: string): number[] | null {
  let text = address.replace(/%.*$/, '');
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[2].split('.').map(Number);
    text = `${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  const part = (h: string) => (h === '' ? [] : h.split(':'));
  const head = part(halves[0]);
  const tail = halves.length === 2 ? part(halves[1]) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length > 2 || missing < 0 || (halves.length === 1 && missing !== 0)) return null;
  const groups = [...head, ...Array<string>(missing).fill('0'), ...tail].map((g) =>
    /^[0-9a-f]{1,4}$/i.test(g) ? parseInt(g, 16) : NaN,
  );
  return groups.some(Number.isNaN) ? null : groups;
}
