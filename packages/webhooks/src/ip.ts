import { isIP } from 'node:net';

/**
 * IP addresses as bytes, and CIDR matching on them. Written out rather than using
 * net.BlockList because BlockList lets an IPv4 rule match IPv4-mapped IPv6 addresses and an
 * IPv6 rule such as ::ffff:0:0/96 match plain IPv4 ones, which blurs the classification.
 */
export interface ParsedIp {
  family: 4 | 6;
  bytes: Uint8Array;
}

export interface Cidr {
  family: 4 | 6;
  bytes: Uint8Array;
  prefix: number;
}

/** Parses a literal (IPv6 may carry brackets or a zone id); null when it is not one. */
export function parseIp(text: string): ParsedIp | null {
  let ip = text.trim();
  if (ip.startsWith('[') && ip.endsWith(']')) ip = ip.slice(1, -1);
  const zone = ip.indexOf('%');
  if (zone >= 0) ip = ip.slice(0, zone);
  const family = isIP(ip);
  if (family === 4) return { family: 4, bytes: Uint8Array.from(ip.split('.').map(Number)) };
  if (family === 6) return { family: 6, bytes: parseIpv6(ip) };
  return null;
}

function parseIpv6(ip: string): Uint8Array {
  // isIP has validated the text; only the expansion is left to do.
  let text = ip.toLowerCase();
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  if (last.includes('.')) {
    // A trailing dotted quad (::ffff:1.2.3.4) is two ordinary groups.
    const [a, b, c, d] = last.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const groupsOf = (s: string): number[] => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const gap = text.indexOf('::');
  let groups: number[];
  if (gap >= 0) {
    const head = groupsOf(text.slice(0, gap));
    const tail = groupsOf(text.slice(gap + 2));
    groups = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  } else {
    groups = groupsOf(text);
  }
  const bytes = new Uint8Array(16);
  groups.forEach((g, i) => {
    bytes[i * 2] = g >> 8;
    bytes[i * 2 + 1] = g & 0xff;
  });
  return bytes;
}

/** `a.b.c.d/n` or `x::/n`; a bare address is a single host. Null when malformed. */
export function parseCidr(text: string): Cidr | null {
  const slash = text.indexOf('/');
  const ip = parseIp(slash >= 0 ? text.slice(0, slash) : text);
  if (!ip || (slash >= 0 && text.slice(0, slash).includes('['))) return null;
  const max = ip.family === 4 ? 32 : 128;
  if (slash < 0) return { ...ip, prefix: max };
  const prefixText = text.slice(slash + 1);
  if (!/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = Number(prefixText);
  return prefix <= max ? { ...ip, prefix } : null;
}

export function inCidr(ip: ParsedIp, cidr: Cidr): boolean {
  if (ip.family !== cidr.family) return false;
  let bits = cidr.prefix;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((ip.bytes[i] & mask) !== (cidr.bytes[i] & mask)) return false;
  }
  return true;
}

/**
 * The IPv4 address a host reaches through this IPv6 one on the same machine: ::ffff:a.b.c.d
 * (mapped), ::ffff:0:a.b.c.d (translated, SIIT) or the deprecated ::a.b.c.d; else null.
 */
export function embeddedIpv4(ip: ParsedIp): ParsedIp | null {
  if (ip.family !== 6) return null;
  const b = ip.bytes;
  for (let i = 0; i < 8; i++) if (b[i] !== 0) return null;
  const mapped = b[8] === 0 && b[9] === 0 && b[10] === 0xff && b[11] === 0xff;
  const translated = b[8] === 0xff && b[9] === 0xff && b[10] === 0 && b[11] === 0;
  const compat = b[8] === 0 && b[9] === 0 && b[10] === 0 && b[11] === 0;
  if (!mapped && !translated && !compat) return null;
  return { family: 4, bytes: b.slice(12) };
}

/**
 * The IPv4 address a tunnel delivers this IPv6 one to: 6to4 (2002::/16, bits 16 to 48) or
 * Teredo (2001::/32, the client's address in the last 32 bits, inverted); else null.
 */
export function tunnelledIpv4(ip: ParsedIp): ParsedIp | null {
  if (ip.family !== 6) return null;
  const b = ip.bytes;
  if (b[0] === 0x20 && b[1] === 0x02) return { family: 4, bytes: b.slice(2, 6) };
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0 && b[3] === 0) return { family: 4, bytes: b.slice(12).map((x) => x ^ 0xff) };
  return null;
}

export const formatIpv4 = (ip: ParsedIp): string => [...ip.bytes].join('.');
