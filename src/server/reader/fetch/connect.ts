import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import type { buildConnector } from 'undici';
import { blockedAddressReason, type BlockReason } from './address.js';

/**
 * The connect-time half of the SSRF guard. The address is checked when the socket is opened, on the very address
 * it connects to, so a host name that resolves to a public address at validation time and to 127.0.0.1 a moment
 * later (DNS rebinding) cannot get through: there is no second resolution to trick.
 */

/** Thrown inside the connector; the fetcher turns it into ReaderError FETCH_BLOCKED_ADDRESS. */
export class BlockedAddressError extends Error {
  readonly code = 'FEEDER_BLOCKED_ADDRESS';
  constructor(
    readonly host: string,
    readonly address: string,
    readonly reason: BlockReason,
  ) {
    // The message names only the host the user gave: the address it resolved to (and its kind) would map the
    // private network to whoever adds feeds (decisions.md "Fetch errors name no resolved address").
    super(`The address of ${host} is not allowed: fetching from private networks is switched off`);
    this.name = 'BlockedAddressError';
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for net/tls.connect that resolves the name and keeps only public addresses. Node asks with
 * `all: true` when it races IPv4 and IPv6 (autoSelectFamily, RFC 8305) and with `all: false` otherwise.
 * Blocked addresses are dropped rather than failing the whole name, so a host with one stray private record still
 * works over its public ones; only the addresses handed back here are ever connected to.
 */
function guardedLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, options.all ? [] : '', 0);
    const allowed = addresses.filter((a) => blockedAddressReason(a.address) === null);
    if (allowed.length === 0) {
      const first = addresses[0];
      const error = first
        ? new BlockedAddressError(hostname, first.address, blockedAddressReason(first.address)!)
        : Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      return callback(error, options.all ? [] : '', 0);
    }
    if (options.all) callback(null, allowed);
    else callback(null, allowed[0].address, allowed[0].family);
  });
}

/** The reason an IP-literal host is refused, or null (also null for names, which the lookup checks). */
export function blockedLiteral(hostname: string): BlockReason | null {
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) ? blockedAddressReason(bare) : null;
}

/**
 * undici connector with the guard. IP-literal hosts never reach `lookup` (net.connect skips resolution for them),
 * so they are checked here before the socket is opened. `build` is undici's buildConnector, passed in by the fetcher
 * that loaded undici on its first fetch.
 */
export function createConnector(build: typeof buildConnector, options: { connectTimeoutMs: number; allowPrivateHosts: boolean }): buildConnector.connector {
  if (options.allowPrivateHosts) return build({ timeout: options.connectTimeoutMs });
  const connect = build({ timeout: options.connectTimeoutMs, lookup: guardedLookup });
  return (target, callback) => {
    const reason = blockedLiteral(target.hostname);
    if (reason) {
      callback(new BlockedAddressError(target.hostname, target.hostname, reason), null);
      return;
    }
    connect(target, callback);
  };
}
