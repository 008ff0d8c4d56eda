import t from 'tap';
import { checkAddress, checkWebhookUrl, classifyAddress, parseCidrs, type GuardOptions } from '@support/webhooks';

const strict: GuardOptions = { allowPrivateNetworks: false, allowedCidrs: [] };
const permissive: GuardOptions = { allowPrivateNetworks: true, allowedCidrs: [] };

t.test('classifyAddress', async (t) => {
  const table: [string, ReturnType<typeof classifyAddress>][] = [
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
    ['93.184.216.34', 'public'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['10.0.0.5', 'private'],
    ['10.255.255.255', 'private'],
    ['172.15.255.255', 'public'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.0', 'public'],
    ['192.168.1.1', 'private'],
    ['100.63.255.255', 'public'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.255', 'cgnat'],
    ['100.128.0.0', 'public'],
    ['100.100.100.200', 'metadata'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.1.1', 'link_local'],
    ['169.254.169.254', 'metadata'],
    ['169.254.170.2', 'metadata'],
    ['192.0.0.8', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['198.19.255.255', 'reserved'],
    ['198.20.0.0', 'public'],
    ['198.51.100.7', 'reserved'],
    ['203.0.113.9', 'reserved'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['2606:4700:4700::1111', 'public'],
    ['2001:4860:4860::8888', 'public'],
    ['fc00::1', 'unique_local'],
    ['fdff:ffff::1', 'unique_local'],
    ['fd00:ec2::254', 'metadata'],
    ['FD00:EC2:0:0:0:0:0:254', 'metadata'],
    ['fe80::1', 'link_local'],
    ['fe80::1%eth0', 'link_local'],
    ['febf::1', 'link_local'],
    ['::ffff:127.0.0.1', 'ipv4_mapped'],
    ['::ffff:7f00:1', 'ipv4_mapped'],
    ['::ffff:8.8.8.8', 'ipv4_mapped'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::127.0.0.1', 'ipv4_mapped'],
    ['::10.0.0.1', 'ipv4_mapped'],
    ['64:ff9b::7f00:1', 'reserved'],
    ['64:ff9b::8.8.8.8', 'reserved'],
    ['ff02::1', 'multicast'],
    ['ff05::1:3', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['2001:db8:ffff::1', 'reserved'],
    ['2001:db9::1', 'public'],
  ];
  for (const [ip, expected] of table) t.equal(classifyAddress(ip), expected, ip);
  t.throws(() => classifyAddress('example.com'), TypeError);
});

t.test('an IPv6 address that carries an IPv4 one is classed by it', async (t) => {
  const table: [string, ReturnType<typeof classifyAddress>][] = [
    // IPv4-translated, ::ffff:0:0/96 (SIIT)
    ['::ffff:0:7f00:1', 'ipv4_mapped'],
    ['::ffff:0:10.0.0.1', 'ipv4_mapped'],
    ['::ffff:0:169.254.169.254', 'metadata'],
    // 6to4, 2002::/16: the IPv4 address in bits 16 to 48
    ['2002:7f00:1::', 'loopback'],
    ['2002:a00:1::1', 'private'],
    ['2002:a9fe:a9fe::', 'metadata'],
    ['2002:c0a8:101:1::1', 'private'],
    ['2002:808:808::1', 'public'],
    // Teredo, 2001::/32: the client's IPv4 address in the last 32 bits, inverted
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'loopback'],
    ['2001::ffff:f5ff:fffe', 'private'],
    ['2001:0:4136:e378:8000:63bf:5601:5601', 'metadata'],
    ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', 'public'],
    // NAT64 (64:ff9b::/96, last 32 bits; 64:ff9b:1::/48 local use): refused whatever they carry
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['64:ff9b::127.0.0.1', 'reserved'],
    ['64:ff9b:1::7f00:1', 'reserved'],
  ];
  for (const [ip, expected] of table) t.equal(classifyAddress(ip), expected, ip);
  const table2: [string, GuardOptions, boolean][] = [
    ['::ffff:0:7f00:1', strict, false],
    ['2002:7f00:1::', strict, false],
    ['2002:a9fe:a9fe::', permissive, false],
    ['2001::ffff:f5ff:fffe', strict, false],
    ['2001:0:4136:e378:8000:63bf:5601:5601', permissive, false],
    ['2002:a01:203::', { allowPrivateNetworks: false, allowedCidrs: ['10.1.0.0/16'] }, true],
    ['2002:808:808::1', strict, true],
  ];
  for (const [ip, options, ok] of table2) t.equal(checkAddress(ip, options).ok, ok, `${ip} ${JSON.stringify(options)}`);
  t.strictSame(checkAddress('2002:7f00:1::', strict), { ok: false, reason: 'resolves to 2002:7f00:1::, a loopback address (its IPv4 address 127.0.0.1)' });
  t.throws(() => classifyAddress('1.2.3.256'), TypeError);
});

t.test('checkAddress', async (t) => {
  const table: [string, GuardOptions, boolean][] = [
    ['8.8.8.8', strict, true],
    ['2606:4700:4700::1111', strict, true],
    ['127.0.0.1', strict, false],
    ['127.0.0.1', permissive, true],
    ['10.0.0.5', strict, false],
    ['10.0.0.5', permissive, true],
    ['100.64.0.1', permissive, true],
    ['169.254.1.1', permissive, true],
    ['::1', permissive, true],
    ['fd12::1', permissive, true],
    ['::ffff:127.0.0.1', strict, false],
    ['::ffff:127.0.0.1', permissive, true],
    ['0.0.0.0', strict, false],
    ['169.254.169.254', permissive, false],
    ['fd00:ec2::254', permissive, false],
    ['::ffff:169.254.169.254', permissive, false],
    ['224.0.0.1', permissive, false],
    ['192.0.2.1', permissive, false],
    ['64:ff9b::7f00:1', permissive, false],
    ['169.254.169.254', { allowPrivateNetworks: false, allowedCidrs: ['169.254.169.254/32'] }, true],
    ['10.1.2.3', { allowPrivateNetworks: false, allowedCidrs: ['10.1.0.0/16'] }, true],
    ['10.2.0.1', { allowPrivateNetworks: false, allowedCidrs: ['10.1.0.0/16'] }, false],
    ['::ffff:10.1.2.3', { allowPrivateNetworks: false, allowedCidrs: ['10.1.0.0/16'] }, true],
    ['fd00::5', { allowPrivateNetworks: false, allowedCidrs: ['fd00::/64'] }, true],
    ['fd01::5', { allowPrivateNetworks: false, allowedCidrs: ['fd00::/64'] }, false],
    ['not-an-ip', permissive, false],
  ];
  for (const [ip, options, ok] of table) {
    t.equal(checkAddress(ip, options).ok, ok, `${ip} ${JSON.stringify(options)}`);
  }
  t.strictSame(checkAddress('10.0.0.5', strict), { ok: false, reason: 'resolves to 10.0.0.5, a private address' });
  t.strictSame(checkAddress('127.0.0.1', strict), { ok: false, reason: 'resolves to 127.0.0.1, a loopback address' });
  t.strictSame(checkAddress('169.254.169.254', permissive), { ok: false, reason: 'resolves to 169.254.169.254, a cloud metadata address' });
});

t.test('parseCidrs', async (t) => {
  t.strictSame(parseCidrs(undefined), []);
  t.strictSame(parseCidrs(''), []);
  t.strictSame(parseCidrs(' 10.0.0.0/8, fd00::/8 ,,192.168.1.7/32'), ['10.0.0.0/8', 'fd00::/8', '192.168.1.7/32']);
  t.strictSame(parseCidrs('127.0.0.1'), ['127.0.0.1'], 'a bare address is one host');
  for (const bad of ['10.0.0.0/33', '10.0.0/8', 'fd00::/129', 'example.com/8', '10.0.0.0/', '10.0.0.0/-1', '10.0.0.0/8/8', '[::1]/128']) {
    t.throws(() => parseCidrs(`10.0.0.0/8,${bad}`), { message: new RegExp(`"${bad.replace(/[[\]./]/g, '\\$&')}" is not a CIDR`) }, bad);
  }
});

/** An injected resolver: names map to fixed answers, anything else is NXDOMAIN. */
function resolver(answers: Record<string, string[]>): GuardOptions['lookup'] {
  return async (host) => {
    const found = answers[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? (6 as const) : (4 as const) }));
  };
}

t.test('checkWebhookUrl', async (t) => {
  const lookup = resolver({
    'hooks.example.com': ['93.184.216.34', '2606:2800:220:1::1'],
    'mixed.example.com': ['93.184.216.34', '10.0.0.7'],
    'internal.example.com': ['192.168.0.10'],
    'rebind.example.com': ['127.0.0.1'],
    'meta.example.com': ['169.254.169.254'],
    'ula.example.com': ['fd12:3456::1'],
    localhost: ['127.0.0.1'],
    'api.localhost': ['127.0.0.1'],
  });
  const s: GuardOptions = { ...strict, lookup };
  const p: GuardOptions = { ...permissive, lookup };
  const table: [string, GuardOptions, true | RegExp][] = [
    ['https://hooks.example.com/webhooks?x=1', s, true],
    ['https://HOOKS.example.com:8443/a', s, true],
    ['http://hooks.example.com/', s, /must use https/],
    ['ftp://hooks.example.com/', s, /must use https/],
    ['not a url', s, /not a valid URL/],
    // The parser would drop these: the stored URL (mailed to the owner) would not be the one dialled.
    ['https://8.8.8.8/x\r\n\r\nSECURITY NOTICE: rotate at https://evil.example/', s, /control characters/],
    ['https://8.8.8.8/a\tb', s, /control characters/],
    ['https://8.8.8.8/a\u007f', s, /control characters/],
    ['https://user:pass@hooks.example.com/', s, /username or password/],
    ['https://user@hooks.example.com/', s, /username or password/],
    ['https://8.8.8.8/hook', s, true],
    ['https://127.0.0.1/hook', s, /127\.0\.0\.1, a loopback address/],
    ['https://127.0.0.1/hook', p, true],
    ['https://2130706433/', s, /loopback/], // 127.0.0.1 spelled as a number
    ['https://0x7f.1/', s, /loopback/],
    ['https://10.0.0.5/', s, /private/],
    ['https://[::1]/', s, /loopback/],
    ['https://[::1]:8443/', p, true],
    ['https://[2606:4700:4700::1111]/', s, true],
    ['https://[::ffff:127.0.0.1]/', s, /IPv4-mapped/],
    ['https://[::ffff:169.254.169.254]/', p, /metadata/],
    ['https://[fe80::1]/', s, /link-local/],
    ['https://[fd00:ec2::254]/', p, /metadata/],
    ['https://169.254.169.254/latest/meta-data', p, /metadata/],
    ['https://metadata.google.internal/computeMetadata/v1/', p, /metadata service/],
    ['https://METADATA.google.internal./', p, /metadata service/],
    ['https://metadata/', p, /metadata service/],
    ['https://instance-data/', p, /metadata service/],
    ['https://localhost/', s, /loopback name/],
    ['https://localhost./', s, /loopback name/],
    ['https://api.localhost/', s, /loopback name/],
    ['https://localhost/', p, true],
    ['https://mixed.example.com/', s, /10\.0\.0\.7, a private address/],
    ['https://mixed.example.com/', p, true],
    ['https://internal.example.com/', s, /private/],
    ['https://rebind.example.com/', s, /loopback/],
    ['https://meta.example.com/', p, /metadata/],
    ['https://ula.example.com/', s, /unique local/],
    ['https://nxdomain.example.com/', s, /could not resolve host nxdomain\.example\.com/],
    ['https://meta.example.com/', { allowPrivateNetworks: false, allowedCidrs: ['169.254.169.254/32'], lookup }, true],
    ['https://internal.example.com/', { allowPrivateNetworks: false, allowedCidrs: ['192.168.0.0/24'], lookup }, true],
  ];
  for (const [url, options, expected] of table) {
    const result = await checkWebhookUrl(url, options);
    const label = `${url} (private ${options.allowPrivateNetworks}, cidrs ${options.allowedCidrs.join(' ')})`;
    if (expected === true) t.equal(result.ok, true, label);
    else t.match(result, { ok: false, reason: expected }, label);
  }

  const ok = await checkWebhookUrl('https://hooks.example.com/x', s);
  t.match(ok, { ok: true, addresses: ['93.184.216.34', '2606:2800:220:1::1'] });
  t.equal(ok.ok && ok.url.href, 'https://hooks.example.com/x');
  t.match(await checkWebhookUrl('https://nobody.example.com/', { ...strict, lookup: async () => [] }), { ok: false, reason: /could not resolve/ });
});

t.test('checkWebhookUrl uses the system resolver by default', async (t) => {
  // localhost resolves without a network; it is loopback, so the guard must refuse it
  // (by name here, and by address through a name the resolver knows).
  t.match(await checkWebhookUrl('https://localhost/', strict), { ok: false, reason: /loopback/ });
  t.match(await checkWebhookUrl('https://localhost/', permissive), { ok: true });
  t.match(await checkWebhookUrl('https://does-not-exist.invalid/', strict), { ok: false, reason: /could not resolve host does-not-exist\.invalid/ });
});
