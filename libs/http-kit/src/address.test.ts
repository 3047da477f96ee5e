import { describe, expect, it } from 'vitest';
import { addressGroup } from './address.ts';

describe('addressGroup: the budget of a per-address limit (issue 32 point 6)', () => {
  it('keeps an IPv4 address whole', () => {
    expect(addressGroup('203.0.113.7', 64)).toBe('203.0.113.7');
    expect(addressGroup('203.0.113.8', 64)).not.toBe(addressGroup('203.0.113.7', 64));
  });

  it('groups IPv6 addresses by their /64, whatever their spelling', () => {
    const group = '2001:db8:1:2::/64';
    for (const ip of [
      '2001:db8:1:2::1',
      '2001:db8:1:2:ffff:ffff:ffff:ffff',
      '2001:DB8:1:2:0:0:0:5',
      '2001:0db8:0001:0002::abcd',
      '2001:db8:1:2::9%eth0',
      '2001:db8:1:2::192.0.2.1',
    ]) {
      expect(addressGroup(ip, 64), ip).toBe(group);
    }
    expect(addressGroup('2001:db8:1:3::1', 64)).toBe('2001:db8:1:3::/64');
    expect(addressGroup('::1', 64)).toBe('0:0:0:0::/64');
  });

  it('takes the prefix length from configuration, bit by bit', () => {
    expect(addressGroup('2001:db8:1:2::1', 48)).toBe('2001:db8:1::/48');
    expect(addressGroup('2001:db8:1:2ff::1', 56)).toBe('2001:db8:1:200::/56');
    expect(addressGroup('2001:db8:1:2::1', 128)).toBe('2001:db8:1:2:0:0:0:1');
    expect(addressGroup('2001:db8:1:2::1', 128)).not.toBe(addressGroup('2001:db8:1:2::2', 128));
  });

  it('reads an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(addressGroup('::ffff:203.0.113.7', 64)).toBe('203.0.113.7');
    expect(addressGroup('::ffff:cb00:7107', 64)).toBe('203.0.113.7');
  });

  it('leaves anything that is not an IP address as it is', () => {
    expect(addressGroup('not-an-address', 64)).toBe('not-an-address');
    expect(addressGroup('', 64)).toBe('');
  });
});
