import { describe, expect, it } from 'vitest';
import { blockedAddressReason } from './address.js';

describe('blockedAddressReason (SSRF address table)', () => {
  const table: [string, string | null][] = [
    // IPv4 loopback, unspecified, private
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    // link-local incl. the cloud metadata service
    ['169.254.169.254', 'link-local'],
    ['169.254.0.1', 'link-local'],
    ['100.64.0.1', 'shared (CGNAT)'],
    ['100.127.255.255', 'shared (CGNAT)'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.0.8', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['192.0.2.1', 'documentation'],
    ['203.0.113.9', 'documentation'],
    // public IPv4, including neighbours of the blocked ranges
    ['8.8.8.8', null],
    ['1.1.1.1', null],
    ['93.184.215.14', null],
    ['172.15.255.255', null],
    ['172.32.0.0', null],
    ['100.63.255.255', null],
    ['100.128.0.0', null],
    ['169.253.255.255', null],
    ['11.0.0.0', null],
    ['223.255.255.255', null],
    // IPv6
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['fc00::1', 'private'],
    ['fd12:3456:789a::1', 'private'],
    ['fec0::1', 'private'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['2001::1', 'reserved'], // Teredo
    ['100::1', 'reserved'], // discard-only
    ['64:ff9b:1::1', 'reserved'],
    ['::1.2.3.4', 'reserved'], // IPv4-compatible, deprecated
    // IPv6 forms that carry an IPv4 address are judged by it
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:8.8.8.8', null],
    ['64:ff9b::127.0.0.1', 'loopback'],
    ['64:ff9b::8.8.8.8', null],
    ['2002:7f00:1::', 'loopback'], // 6to4 of 127.0.0.1
    ['2002:0808:0808::1', null],
    // public IPv6
    ['2606:4700:4700::1111', null],
    ['2a00:1450:4001:82b::200e', null],
    ['2001:4860:4860::8888', null],
    // not IP addresses at all: the lookup resolves names first
    ['example.com', null],
    ['', null],
  ];

  it.each(table)('%s → %s', (address, reason) => {
    expect(blockedAddressReason(address)).toBe(reason);
  });
});
