// Input at the edges of text and objects (docs/reference/api.md, "Text"): names every JS object has, Unicode
// forms, NUL and lone surrogates, text that only looks blank, compressed bodies, any search text.
import http from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import t from 'tap';
import type { Reply } from '../support/client';
import { propertySeed } from '../support/property';
import { serviceFixture } from '../support/fixture';

const e2e = serviceFixture();

/** Status and the fields a 400 names (schema failures carry no code). */
const refused = (r: Reply) => [r.status, r.body?.error?.code, (r.body?.error?.details?.fields ?? []).map((f: { field: string }) => f.field)];

t.test('names every JS object has are unknown fields like any other (400 naming them)', async (t) => {
  for (const key of ['constructor', 'toString', 'hasOwnProperty']) {
    t.strictSame(refused(await e2e.ws.api.post('/customers', { email: `${key}@example.com`, [key]: 1 })), [400, undefined, [key]], `body key ${key}`);
    t.strictSame(refused(await e2e.ws.api.get(`/customers?${key}=1`)), [400, undefined, [key]], `query ?${key}=1`);
    t.strictSame(
      refused(await e2e.ws.api.patch('/agent', { deployed_channels: { [key]: true } })),
      [400, undefined, [`deployed_channels.${key}`]],
      `deployed_channels.${key}`,
    );
  }
});

/** A raw request: the body's bytes exactly as given, any Content-Encoding. */
const raw = (path: string, headers: Record<string, string>, body: Buffer) =>
  new Promise<{ status: number; message: unknown }>((resolve, reject) => {
    const url = new URL(e2e.svc.baseUrl + path);
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { Authorization: `Bearer ${e2e.ws.key}`, 'Content-Type': 'application/json', ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, message: (JSON.parse(text) as { error?: { message?: string } }).error?.message }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });

t.test('a compressed body is checked for UTF-8 after it is inflated', async (t) => {
  const bad = Buffer.concat([Buffer.from('{"name":"a'), Buffer.from([0xff]), Buffer.from('b"}')]);
  const encodings = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync };
  for (const [encoding, compress] of Object.entries(encodings)) {
    t.strictSame(
      await raw('/tags', { 'Content-Encoding': encoding }, compress(bad)),
      { status: 400, message: 'The request body is not valid UTF-8' },
      encoding,
    );
    const good = await raw('/tags', { 'Content-Encoding': encoding }, compress(Buffer.from(JSON.stringify({ name: `zoë ${encoding}` }))));
    t.equal(good.status, 201, `valid UTF-8 ${encoding} is read`);
  }
});

t.test('an e-mail is one identity under NFKC and case folding: the Kelvin sign is a K, full-width letters and ligatures too', async (t) => {
  const kelvin = await e2e.ws.api.post('/customers', { email: '\u212Aate@example.com' });
  const ascii = await e2e.ws.api.post('/customers', { email: 'kate@example.com' });
  t.strictSame([kelvin.status, ascii.status, ascii.body.id], [201, 201, kelvin.body.id], 'a match answers 201 too');
  const plain = (await e2e.ws.api.post('/customers', { email: 'fiona@example.com' })).body;
  const ligature = (await e2e.ws.api.post('/customers', { email: '\ufb01ona@example.com' })).body;
  const wide = (await e2e.ws.api.post('/customers', { email: '\uff46\uff49ona@\uff45xample.com' })).body;
  t.strictSame([ligature.id, wide.id], [plain.id, plain.id]);
});

t.test('text is stored in NFC: café decomposed is the same tag name as café composed', async (t) => {
  const nfc = await e2e.ws.api.post('/tags', { name: 'caf\u00e9' });
  const nfd = await e2e.ws.api.post('/tags', { name: 'cafe\u0301' });
  t.strictSame([nfc.status, nfd.status, nfd.body?.error?.code], [201, 409, 'conflict']);
  const stored = await e2e.ws.api.post('/tags', { name: 'Cre\u0300me' });
  t.equal(stored.body.name, 'Cr\u00e8me', 'kept composed');
});

t.test('text of only whitespace and zero-width or format characters is blank (400)', async (t) => {
  const invisible = '\u200b\u200c\u200d\u2060\ufeff \u00ad\u3164\u2800\u115f';
  // A schema failure as an empty string is (the pattern says so): no code, the field named, in every route that takes such text
  const blank = (r: Reply) => [r.status, r.body?.error?.code, r.body?.error?.message, r.body?.error?.details?.fields];
  const field = (name: string) => [{ field: name, code: 'too_short', message: 'must not be blank' }];
  t.strictSame(blank(await e2e.ws.api.post('/tags', { name: invisible })), [400, undefined, 'Invalid body: name must not be blank', field('name')]);
  const conversation = (await e2e.ws.api.post('/conversations', { channel: 'api' })).body;
  const message = await e2e.ws.api.post(`/conversations/${conversation.id}/messages`, { content: invisible });
  t.strictSame(blank(message), [400, undefined, 'Invalid body: content must not be blank', field('content')]);
  t.strictSame(blank(await e2e.ws.api.patch('/agent', { name: '\u200b' })), [400, undefined, 'Invalid body: name must not be blank', field('name')]);
  const keywords = await e2e.ws.api.patch('/agent', { escalation: { keywords: ['ok', '\u2003'] } });
  t.strictSame(blank(keywords), [400, undefined, 'Invalid body: escalation.keywords.1 must not be blank', field('escalation.keywords.1')]);
  // The agent's message is checked before the agent's state: 400 whether it is enabled or not
  t.strictSame(blank(await e2e.ws.api.post('/agent/messages', { message: '   ' })), [
    400,
    undefined,
    'Invalid body: message must not be blank',
    field('message'),
  ]);
  const pattern = new RegExp(
    (await e2e.ws.api.get('/openapi.json')).body.paths['/tags'].post.requestBody.content['application/json'].schema.properties.name.pattern,
  );
  t.notOk(pattern.test(invisible), 'the schema says so too');
  t.equal((await e2e.ws.api.post('/tags', { name: 'a\u200bb' })).status, 201, 'a zero-width character among others is kept');
});

t.test('NUL and lone surrogates are refused in any text field (400 naming it)', async (t) => {
  // Raw JSON text: JSON.stringify would write a lone surrogate as the same escape anyway.
  t.strictSame(refused(await e2e.ws.api.post('/customers', '{"email":"s@example.com","name":"a\\ud800b"}')), [400, undefined, ['name']], 'lone high');
  t.strictSame(refused(await e2e.ws.api.post('/customers', '{"email":"s@example.com","name":"\\udc00"}')), [400, undefined, ['name']], 'lone low');
  t.strictSame(refused(await e2e.ws.api.post('/customers', { email: 's@example.com', name: 'a\u0000b' })), [400, undefined, ['name']], 'NUL');
  t.strictSame(refused(await e2e.ws.api.get('/customers?search=abc%00')), [400, undefined, ['search']], 'NUL in a search');
  t.equal((await e2e.ws.api.post('/customers', { email: 's@example.com', name: 'emoji \ud83d\ude00' })).status, 201, 'a surrogate pair is a character');
});

t.test('a search of any text answers 200 or 400, never 500', async (t) => {
  await e2e.ws.api.post('/customers', { email: 'quote"star*@example.com', name: 'NEAR (a OR b) -c "d"' });
  const found = await e2e.ws.api.get(`/customers?search=${encodeURIComponent('(a OR b) -c "d')}`);
  t.strictSame([found.status, found.body.data.map((c: { name: string }) => c.name)], [200, ['NEAR (a OR b) -c "d"']], 'FTS syntax is plain text');
  const seed = propertySeed();
  t.comment(`fast-check seed ${seed} (FC_SEED=${seed} replays it)`);
  const special = fc.constantFrom('\0', '\u0001', '\ud800', '\udfff', '"', '*', '-', '(', ')', 'NEAR', '%', '_', '\\', '^', 'AND');
  const unit = fc.oneof(special, fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }));
  await fc.assert(
    fc.asyncProperty(fc.string({ unit, maxLength: 12 }), async (text) => {
      // Percent-encoded UTF-8 bytes: a lone surrogate goes as U+FFFD, as any client's would.
      const query = [...Buffer.from(text)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
      const r = await e2e.ws.api.get(`/customers?search=${query}`);
      return r.status === 200 || (r.status === 400 && r.body.error.details.fields[0].field === 'search');
    }),
    { seed, numRuns: 150 },
  );
});
