import { isIP } from 'node:net';

/**
 * Which IP addresses a feed fetch may connect to (the SSRF guard, docs/ARCHITECTURE.md "Stack" "connect-time address check").
 *
 * A feed URL is user input, and the server fetches it from inside its own network. Without a check, a user could
 * make Feeder read the cloud metadata service (169.254.169.254), an admin page on localhost or a device on the LAN,
 * and read the answer back as "feed items" or error messages. The table follows IANA's special-purpose address
 * registries (RFC 6890 and its updates): every range that is not globally reachable unicast is refused.
 *
 * IPv6 is checked as an allow-list: only global unicast (2000::/3, RFC 4291 §2.4) may pass, minus the special blocks
 * inside it; forms that embed an IPv4 address (IPv4-mapped ::ffff:0:0/96, NAT64 64:ff9b::/96, 6to4 2002::/16) are
 * judged by the IPv4 address they carry, so ::ffff:127.0.0.1 is loopback.
 */

export type BlockReason = 'loopback' | 'unspecified' | 'private' | 'link-local' | 'shared (CGNAT)' | 'multicast' | 'broadcast' | 'reserved' | 'documentation';

/** [first address, prefix length, reason] for IPv4, as 32-bit numbers. */
const IPV4_BLOCKED: readonly (readonly [string, number, BlockReason])[] = [
  ['0.0.0.0', 8, 'unspecified'], // "this network" (RFC 791); 0.0.0.0 reaches the local host on Linux
  ['10.0.0.0', 8, 'private'], // RFC 1918
  ['100.64.0.0', 10, 'shared (CGNAT)'], // RFC 6598
  ['127.0.0.0', 8, 'loopback'], // RFC 1122
  ['169.254.0.0', 16, 'link-local'], // RFC 3927; cloud metadata services live at 169.254.169.254
  ['172.16.0.0', 12, 'private'], // RFC 1918
  ['192.0.0.0', 24, 'reserved'], // IETF protocol assignments (RFC 6890)
  ['192.0.2.0', 24, 'documentation'], // TEST-NET-1 (RFC 5737)
  ['192.88.99.0', 24, 'reserved'], // 6to4 relay anycast, deprecated (RFC 7526)
  ['192.168.0.0', 16, 'private'], // RFC 1918
  ['198.18.0.0', 15, 'reserved'], // benchmarking (RFC 2544)
  ['198.51.100.0', 24, 'documentation'], // TEST-NET-2 (RFC 5737)
  ['203.0.113.0', 24, 'documentation'], // TEST-NET-3 (RFC 5737)
  ['224.0.0.0', 4, 'multicast'], // RFC 5771
  ['255.255.255.255', 32, 'broadcast'], // RFC 919; listed before 240/4 so it gets its own name
  ['240.0.0.0', 4, 'reserved'], // RFC 1112 "future use"
];

const IPV4_TABLE = IPV4_BLOCKED.map(([base, bits, reason]) => ({
  base: parseIPv4(base)!,
  mask: bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0,
  reason,
}));

/** Strict dotted-quad parser (the form DNS answers and WHATWG-normalised URL hosts use). */
function parseIPv4(text: string): number | null {
  if (isIP(text) !== 4) return null;
  return text.split('.').reduce((n, part) => ((n << 8) | Number(part)) >>> 0, 0);
}

/** Parses any textual IPv6 form (RFC 4291 §2.2, incl. "::" and a trailing dotted quad) into eight 16-bit groups. */
function parseIPv6(text: string): number[] | null {
  const address = text.replace(/%.*$/, ''); // zone id (fe80::1%eth0) does not change the class
  if (isIP(address) !== 6) return null;
  let tail: number[] = [];
  let body = address;
  const lastColon = address.lastIndexOf(':');
  const dotted = address.slice(lastColon + 1);
  if (dotted.includes('.')) {
    const v4 = parseIPv4(dotted);
    if (v4 === null) return null;
    tail = [v4 >>> 16, v4 & 0xffff];
    // Keep a "::" right before the dotted quad ("::1.2.3.4"); drop a single separating colon.
    body = address.slice(0, lastColon + 1);
    if (!body.endsWith('::')) body = body.slice(0, -1);
  }
  const [head, rest] = body.split('::') as [string, string | undefined];
  const toGroups = (s: string) => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const headGroups = toGroups(head);
  const restGroups = rest === undefined ? [] : toGroups(rest);
  const missing = 8 - headGroups.length - restGroups.length - tail.length;
  if (rest === undefined && missing !== 0) return null;
  if (missing < 0) return null;
  return [...headGroups, ...new Array<number>(rest === undefined ? 0 : missing).fill(0), ...restGroups, ...tail];
}

function classifyIPv4(n: number): BlockReason | null {
  for (const { base, mask, reason } of IPV4_TABLE) {
    if ((n & mask) >>> 0 === base) return reason;
  }
  return null;
}

function classifyIPv6(g: number[]): BlockReason | null {
  const embeddedV4 = (hi: number, lo: number) => ((hi << 16) | lo) >>> 0;
  const zeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);

  if (zeroUpTo(8)) return 'unspecified'; // ::
  if (zeroUpTo(7) && g[7] === 1) return 'loopback'; // ::1
  // IPv4-mapped ::ffff:a.b.c.d (RFC 4291 §2.5.5.2): the socket really talks to the IPv4 address.
  if (zeroUpTo(5) && g[5] === 0xffff) return classifyIPv4(embeddedV4(g[6], g[7]));
  // IPv4-compatible ::a.b.c.d, deprecated (RFC 4291 §2.5.5.1); nothing legitimate uses it.
  if (zeroUpTo(6)) return 'reserved';
  // NAT64 well-known prefix 64:ff9b::/96 (RFC 6052): translated to the embedded IPv4 address.
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) {
    return classifyIPv4(embeddedV4(g[6], g[7]));
  }
  // 6to4 2002::/16 (RFC 3056): the relay forwards to the IPv4 address in bits 16..47.
  if (g[0] === 0x2002) return classifyIPv4(embeddedV4(g[1], g[2]));

  const first = g[0];
  if ((first & 0xfe00) === 0xfc00) return 'private'; // unique local fc00::/7 (RFC 4193)
  if ((first & 0xffc0) === 0xfe80) return 'link-local'; // fe80::/10
  if ((first & 0xffc0) === 0xfec0) return 'private'; // site-local fec0::/10, deprecated (RFC 3879)
  if ((first & 0xff00) === 0xff00) return 'multicast'; // ff00::/8
  if ((first & 0xe000) !== 0x2000) return 'reserved'; // outside global unicast 2000::/3 (incl. 64:ff9b:1::/48, 100::/64)
  if (first === 0x2001 && g[1] === 0x0db8) return 'documentation'; // 2001:db8::/32 (RFC 3849)
  if (first === 0x3fff && g[1] < 0x1000) return 'documentation'; // 3fff::/20 (RFC 9637)
  // IETF protocol assignments 2001::/23 (Teredo 2001::/32 tunnels to an obfuscated IPv4 address, ORCHID, AMT…).
  if (first === 0x2001 && g[1] < 0x0200) return 'reserved';
  return null;
}

/**
 * Why this IP address must not be fetched from, or null when it is a public unicast address.
 * Input that is not an IP address at all also gets null; callers resolve names first.
 */
export function blockedAddressReason(address: string): BlockReason | null {
  const v4 = parseIPv4(address);
  if (v4 !== null) return classifyIPv4(v4);
  const v6 = parseIPv6(address);
  if (v6 !== null) return classifyIPv6(v6);
  return null;
}
