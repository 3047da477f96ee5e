import { isIPv4, isIPv6 } from 'node:net';

/**
 * The budget a per-address limit counts a client against (issue 32 point 6). An IPv4 address is
 * one budget. An IPv6 address is grouped by its first `ipv6PrefixBits` bits (64 by default,
 * `RATE_LIMIT_IPV6_PREFIX`): one subscriber or one server gets a whole /64 and can pick any
 * address in it, so counting exact IPv6 addresses would give it 2^64 budgets. An IPv4-mapped
 * IPv6 address (`::ffff:192.0.2.1`, what a dual-stack socket reports) is its IPv4 address.
 *
 * The key is written in one form whatever the spelling of the address (`2001:DB8:0:0:1::5` and
 * `2001:db8::1:0:0:5` are one client): the kept hextets in lower-case hexadecimal without leading
 * zeros, then `::/prefix` (`2001:db8:0:0::/64`). Anything that is not an IP address (a test's
 * socket name) is returned as it is.
 */
export function addressGroup(ip: string, ipv6PrefixBits: number): string {
  if (isIPv4(ip)) return ip;
  const words = parseIPv6(ip);
  if (!words) return ip;
  if (words.slice(0, 5).every((w) => w === 0) && words[5] === 0xffff) {
    return `${words[6]! >> 8}.${words[6]! & 0xff}.${words[7]! >> 8}.${words[7]! & 0xff}`;
  }
  const bits = Math.max(0, Math.min(128, Math.trunc(ipv6PrefixBits)));
  const kept: number[] = [];
  for (let i = 0; i < 8 && i * 16 < bits; i++) {
    const left = bits - i * 16;
    const mask = left >= 16 ? 0xffff : (0xffff << (16 - left)) & 0xffff;
    kept.push(words[i]! & mask);
  }
  const text = kept.map((w) => w.toString(16)).join(':');
  return bits === 128 ? text : `${text}::/${bits}`;
}

/** The eight 16-bit words of an IPv6 address (zone index dropped, embedded IPv4 read); null if it is none. */
function parseIPv6(raw: string): number[] | null {
  const ip = raw.split('%')[0]!;
  if (!isIPv6(ip)) return null;
  const halves = ip.split('::');
  const words = (part: string): number[] => {
    if (part === '') return [];
    const out: number[] = [];
    for (const piece of part.split(':')) {
      if (piece.includes('.')) {
        const [a, b, c, d] = piece.split('.').map(Number) as [number, number, number, number];
        out.push((a << 8) | b, (c << 8) | d);
      } else out.push(parseInt(piece, 16));
    }
    return out;
  };
  const head = words(halves[0]!);
  if (halves.length === 1) return head;
  const tail = words(halves[1]!);
  return [...head, ...Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}
