import t from 'tap';
import { createHmac } from 'node:crypto';
import { newSigningSecret, signatureHeader, signPayload, verifyWebhook } from '@support/webhooks';

const secret = 'whsec_test_secret';
const body = '{"id":"evt_1","type":"ping","created_at":"2026-01-01T00:00:00Z","data":{}}';
const t0 = 1_767_225_600; // 2026-01-01T00:00:00Z
const at = (sec: number) => () => sec * 1000;

t.test('signPayload is HMAC-SHA256 over "<t>." + raw body, keyed with the whole secret', async (t) => {
  const expected = createHmac('sha256', secret).update(`${t0}.${body}`).digest('hex');
  t.equal(signPayload(secret, t0, body), expected);
  t.equal(signPayload(secret, t0, Buffer.from(body)), expected, 'a Buffer body signs the same bytes');
  t.match(signPayload(secret, t0, body), /^[0-9a-f]{64}$/, 'lowercase hex');
  t.not(signPayload('test_secret', t0, body), expected, 'the whsec_ prefix is part of the key');
  t.equal(signatureHeader(secret, t0, body), `t=${t0},v1=${expected}`);
});

t.test('verifyWebhook accepts a fresh signature and refuses anything altered', async (t) => {
  const header = signatureHeader(secret, t0, body);
  t.equal(verifyWebhook(body, header, secret, { now: at(t0) }), true, 'fresh');
  t.equal(verifyWebhook(Buffer.from(body), header, secret, { now: at(t0 + 10) }), true, 'Buffer body, 10 s later');
  t.equal(verifyWebhook(body.replace('ping', 'pong'), header, secret, { now: at(t0) }), false, 'tampered body');
  t.equal(verifyWebhook(JSON.stringify(JSON.parse(body), null, 1), header, secret, { now: at(t0) }), false, 're-serialized body');
  t.equal(verifyWebhook(body, header, 'whsec_other', { now: at(t0) }), false, 'wrong secret');
  t.equal(verifyWebhook(body, header.replace(`t=${t0}`, `t=${t0 + 1}`), secret, { now: at(t0) }), false, 'changed timestamp');
});

t.test('verifyWebhook enforces the timestamp tolerance (default 300 s)', async (t) => {
  const header = signatureHeader(secret, t0, body);
  t.equal(verifyWebhook(body, header, secret, { now: at(t0 + 300) }), true, 'exactly 300 s old');
  t.equal(verifyWebhook(body, header, secret, { now: at(t0 + 301) }), false, '301 s old');
  t.equal(verifyWebhook(body, header, secret, { now: at(t0 - 301) }), false, '301 s in the future');
  t.equal(verifyWebhook(body, header, secret, { now: at(t0 + 1000), toleranceSec: 1000 }), true, 'custom tolerance');
  t.equal(verifyWebhook(body, header, secret, { now: at(t0 + 11), toleranceSec: 10 }), false);
  const old = signatureHeader(secret, Math.floor(Date.now() / 1000) - 3600, body);
  t.equal(verifyWebhook(body, old, secret), false, 'the real clock is the default');
  const fresh = signatureHeader(secret, Math.floor(Date.now() / 1000), body);
  t.equal(verifyWebhook(body, fresh, secret), true);
});

t.test('several v1 entries (a secret roll) and extra entries', async (t) => {
  const good = signPayload(secret, t0, body);
  const other = signPayload('whsec_old', t0, body);
  const now = { now: at(t0) };
  t.equal(verifyWebhook(body, `t=${t0},v1=${other},v1=${good}`, secret, now), true, 'second v1 matches');
  t.equal(verifyWebhook(body, `t=${t0},v1=${good},v1=${other}`, secret, now), true, 'first v1 matches');
  t.equal(verifyWebhook(body, `t=${t0},v1=${other},v1=${other}`, secret, now), false, 'neither matches');
  t.equal(verifyWebhook(body, `v0=abc,t=${t0}, v1=${good},x=1`, secret, now), true, 'unknown entries, order and spaces');
  t.equal(verifyWebhook(body, `t=${t0},v1=short,v1=${good}`, secret, now), true, 'a malformed v1 beside a good one');
  t.equal(verifyWebhook(body, `t=${t0},v1=${good.toUpperCase()}`, secret, now), true, 'hex case');
});

t.test('malformed headers are false, never an exception', async (t) => {
  const good = signPayload(secret, t0, body);
  const now = { now: at(t0) };
  const headers = [
    '',
    ',',
    '=',
    'garbage',
    `t=${t0}`,
    `v1=${good}`,
    `t=,v1=${good}`,
    `t=abc,v1=${good}`,
    `t=-${t0},v1=${good}`,
    `t=${t0}.5,v1=${good}`,
    `t=${t0},t=${t0},v1=${good}`,
    `t=${t0},v1=`,
    `t=${t0},v1=${good.slice(0, 63)}`,
    `t=${t0},v1=${good}00`,
    `t=${t0},v1=${'z'.repeat(64)}`,
    `t=99999999999999999999,v1=${good}`,
  ];
  for (const header of headers) t.equal(verifyWebhook(body, header, secret, now), false, JSON.stringify(header));
  t.equal(verifyWebhook(body, undefined as unknown as string, secret, now), false, 'undefined header');
  t.equal(verifyWebhook(body, `t=${t0},v1=${good}`, '', now), false, 'empty secret');
  t.equal(verifyWebhook(null as unknown as string, `t=${t0},v1=${good}`, secret, now), false, 'null body');
});

t.test('newSigningSecret: whsec_ and 32 random bytes', async (t) => {
  const a = newSigningSecret();
  const b = newSigningSecret();
  t.match(a, /^whsec_[A-Za-z0-9_-]{43}$/);
  t.not(a, b);
  t.equal(Buffer.from(a.slice('whsec_'.length), 'base64url').length, 32);
});
