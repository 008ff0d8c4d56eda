import { promises as dns } from 'node:dns';
import { embeddedIpv4, formatIpv4, inCidr, parseCidr, parseIp, tunnelledIpv4, type Cidr, type ParsedIp } from './ip';

/**
 * SSRF guard for webhook URLs (spec 4.8: checked at registration and again at every delivery).
 * A receiver URL is chosen by a tenant, so it must not reach loopback, the private network or
 * a cloud metadata service unless the operator says so.
 */

export type LookupAddress = { address: string; family: 4 | 6 };

export interface GuardOptions {
  /** WEBHOOK_ALLOW_PRIVATE_NETWORKS: development and tests only. */
  allowPrivateNetworks: boolean;
  /** WEBHOOK_ALLOWED_CIDRS: always allowed, metadata addresses included. */
  allowedCidrs: readonly string[];
  /** Defaults to dns.promises.lookup(host, { all: true, verbatim: true }). */
  lookup?: (hostname: string) => Promise<LookupAddress[]>;
}

export type AddressClass =
  'public' | 'loopback' | 'private' | 'link_local' | 'cgnat' | 'unique_local' | 'ipv4_mapped' | 'unspecified' | 'metadata' | 'multicast' | 'reserved';

export type GuardVerdict = { ok: true } | { ok: false; reason: string };

/** Ranges in match order: the first that contains the address names its class. */
const cidr = (text: string): Cidr => parseCidr(text)!;
const IPV4_RANGES: readonly (readonly [Cidr, AddressClass])[] = [
  [cidr('169.254.169.254/32'), 'metadata'], // AWS, GCP, Azure, OpenStack…
  [cidr('169.254.170.2/32'), 'metadata'], // ECS task credentials
  [cidr('100.100.100.200/32'), 'metadata'], // Alibaba Cloud
  [cidr('0.0.0.0/8'), 'unspecified'],
  [cidr('10.0.0.0/8'), 'private'],
  [cidr('172.16.0.0/12'), 'private'],
  [cidr('192.168.0.0/16'), 'private'],
  [cidr('100.64.0.0/10'), 'cgnat'],
  [cidr('127.0.0.0/8'), 'loopback'],
  [cidr('169.254.0.0/16'), 'link_local'],
  [cidr('192.0.0.0/24'), 'reserved'], // IETF protocol assignments
  [cidr('192.0.2.0/24'), 'reserved'], // TEST-NET-1
  [cidr('198.18.0.0/15'), 'reserved'], // benchmarking
  [cidr('198.51.100.0/24'), 'reserved'], // TEST-NET-2
  [cidr('203.0.113.0/24'), 'reserved'], // TEST-NET-3
  [cidr('224.0.0.0/4'), 'multicast'],
  [cidr('240.0.0.0/4'), 'reserved'], // includes broadcast 255.255.255.255
];
const IPV6_RANGES: readonly (readonly [Cidr, AddressClass])[] = [
  [cidr('::/128'), 'unspecified'],
  [cidr('::1/128'), 'loopback'],
  [cidr('fd00:ec2::254/128'), 'metadata'], // AWS IMDS over IPv6
  // NAT64 (its IPv4 address in the last 32 bits, classed first: metadata stays metadata) would
  // reach any IPv4 address, private ones too; the local-use prefix's length, and so where its
  // IPv4 address sits, is the operator's choice.
  [cidr('64:ff9b::/96'), 'reserved'],
  [cidr('64:ff9b:1::/48'), 'reserved'],
  [cidr('100::/64'), 'reserved'], // discard-only
  [cidr('2001:db8::/32'), 'reserved'], // documentation
  [cidr('fc00::/7'), 'unique_local'],
  [cidr('fe80::/10'), 'link_local'],
  [cidr('fec0::/10'), 'reserved'], // deprecated site-local
  [cidr('ff00::/8'), 'multicast'],
];

/** Allowed when the operator turns on WEBHOOK_ALLOW_PRIVATE_NETWORKS. */
const PRIVATE_CLASSES: ReadonlySet<AddressClass> = new Set<AddressClass>([
  'loopback',
  'private',
  'link_local',
  'cgnat',
  'unique_local',
  'ipv4_mapped',
  'unspecified',
]);

const DESCRIPTION: Record<Exclude<AddressClass, 'public'>, string> = {
  loopback: 'a loopback address',
  private: 'a private address',
  link_local: 'a link-local address',
  cgnat: 'a carrier-grade NAT address',
  unique_local: 'a unique local address',
  ipv4_mapped: 'an IPv4-mapped address',
  unspecified: 'an unspecified address',
  metadata: 'a cloud metadata address',
  multicast: 'a multicast address',
  reserved: 'a reserved address',
};

/** Names of metadata services, refused without resolving them. */
const METADATA_HOSTNAMES: ReadonlySet<string> = new Set(['metadata.google.internal', 'metadata', 'instance-data', 'instance-data.ec2.internal']);

/** Parses WEBHOOK_ALLOWED_CIDRS (comma-separated); throws on the first malformed entry. */
export function parseCidrs(text: string | undefined): string[] {
  if (text === undefined) return [];
  const out: string[] = [];
  for (const raw of text.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    if (!parseCidr(entry)) {
      throw new Error(`WEBHOOK_ALLOWED_CIDRS: "${entry}" is not a CIDR (expected e.g. 10.1.0.0/16 or fd00::/8)`);
    }
    out.push(entry);
  }
  return out;
}

const NAT64 = cidr('64:ff9b::/96');

function classify(ip: ParsedIp): AddressClass {
  if (ip.family === 6) {
    if (inCidr(ip, NAT64) && classify({ family: 4, bytes: ip.bytes.slice(12) }) === 'metadata') return 'metadata';
    for (const [range, kind] of IPV6_RANGES) if (inCidr(ip, range)) return kind;
    const v4 = embeddedIpv4(ip);
    if (v4) {
      // ::ffff:169.254.169.254 reaches the metadata service on a dual-stack socket.
      return classify(v4) === 'metadata' ? 'metadata' : 'ipv4_mapped';
    }
    // 6to4 and Teredo: the IPv4 address they deliver to decides (2002:7f00:1:: is loopback).
    const tunnelled = tunnelledIpv4(ip);
    return tunnelled ? classify(tunnelled) : 'public';
  }
  for (const [range, kind] of IPV4_RANGES) if (inCidr(ip, range)) return kind;
  return 'public';
}

/** Throws a TypeError when `ip` is not an IP address. */
export function classifyAddress(ip: string): AddressClass {
  const parsed = parseIp(ip);
  if (!parsed) throw new TypeError(`not an IP address: ${ip}`);
  return classify(parsed);
}

function inAllowedCidrs(ip: ParsedIp, allowedCidrs: readonly string[]): boolean {
  // An allow-listed IPv4 range also covers the IPv6 forms that carry its addresses.
  const v4 = embeddedIpv4(ip) ?? tunnelledIpv4(ip);
  for (const text of allowedCidrs) {
    const range = parseCidr(text);
    if (!range) continue; // parseCidrs validates; a stray bad entry allows nothing
    if (inCidr(ip, range) || (v4 && inCidr(v4, range))) return true;
  }
  return false;
}

export function checkAddress(ip: string, options: GuardOptions): GuardVerdict {
  const parsed = parseIp(ip);
  if (!parsed) return { ok: false, reason: `${ip} is not an IP address` };
  if (inAllowedCidrs(parsed, options.allowedCidrs)) return { ok: true };
  const kind = classify(parsed);
  if (kind === 'public') return { ok: true };
  if (options.allowPrivateNetworks && PRIVATE_CLASSES.has(kind)) return { ok: true };
  const tunnelled = tunnelledIpv4(parsed);
  return { ok: false, reason: `resolves to ${ip}, ${DESCRIPTION[kind]}${tunnelled ? ` (its IPv4 address ${formatIpv4(tunnelled)})` : ''}` };
}

export type UrlForm = { ok: true; url: URL; /** hostname without [] and a trailing dot */ host: string; isIpLiteral: boolean } | { ok: false; reason: string };

/** The checks that need no DNS: shape, scheme, credentials, forbidden names. */
export function checkUrlForm(url: string, options: Pick<GuardOptions, 'allowPrivateNetworks'>): UrlForm {
  // The URL parser drops tabs and line breaks, so what is stored, shown and mailed to the owner
  // would not be what is dialled (and a CR/LF would put the caller's text into that mail).
  // eslint-disable-next-line no-control-regex -- the control characters are what it refuses
  if (/[\u0000-\u001f\u007f]/.test(url)) return { ok: false, reason: 'url must not contain control characters (tabs, line breaks)' };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: 'url is not a valid URL' };
  }
  if (parsed.protocol !== 'https:') return { ok: false, reason: 'url must use https' };
  if (parsed.username !== '' || parsed.password !== '') return { ok: false, reason: 'url must not contain a username or password' };
  let host = parsed.hostname;
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  if (host === '') return { ok: false, reason: 'url must have a host' };
  if (parseIp(host)) return { ok: true, url: parsed, host, isIpLiteral: true };
  // "metadata." and "metadata" are the same name to a resolver.
  const name = host.toLowerCase().replace(/\.$/, '');
  if (METADATA_HOSTNAMES.has(name)) return { ok: false, reason: `host ${name} is a cloud metadata service` };
  if (!options.allowPrivateNetworks && (name === 'localhost' || name.endsWith('.localhost'))) {
    return { ok: false, reason: `host ${name} is a loopback name` };
  }
  return { ok: true, url: parsed, host, isIpLiteral: false };
}

export const defaultLookup = async (hostname: string): Promise<LookupAddress[]> => {
  const found = await dns.lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** Resolves `host` and checks every address: one bad address refuses the lot. */
export async function resolveAndCheck(host: string, options: GuardOptions): Promise<{ ok: true; addresses: LookupAddress[] } | { ok: false; reason: string }> {
  let found: LookupAddress[];
  try {
    found = await (options.lookup ?? defaultLookup)(host);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException | null)?.code;
    return { ok: false, reason: `could not resolve host ${host}${code ? ` (${code})` : ''}` };
  }
  if (!Array.isArray(found) || found.length === 0) return { ok: false, reason: `could not resolve host ${host}` };
  for (const { address } of found) {
    const verdict = checkAddress(address, options);
    if (!verdict.ok) return verdict;
  }
  return { ok: true, addresses: found };
}

export async function checkWebhookUrl(
  url: string,
  options: GuardOptions,
): Promise<{ ok: true; url: URL; addresses: string[] } | { ok: false; reason: string }> {
  const form = checkUrlForm(url, options);
  if (!form.ok) return form;
  if (form.isIpLiteral) {
    const verdict = checkAddress(form.host, options);
    return verdict.ok ? { ok: true, url: form.url, addresses: [form.host] } : verdict;
  }
  const resolved = await resolveAndCheck(form.host, options);
  if (!resolved.ok) return resolved;
  return { ok: true, url: form.url, addresses: resolved.addresses.map((a) => a.address) };
}
