import { MongoClient } from 'mongodb';
import t from 'tap';
import { webhookEventId } from '@support/webhook-endpoints';

import { client, type Client } from '../../support/client';
import { databaseFor, mongoServerUrl, mongoSkip, withDatabase } from '../../support/ferret';
import { LocalNatsServer, natsServerInstalled } from '../../support/nats';
import { Receiver } from '../../support/receiver';
import { removeDir, run, serviceMain, tempDir } from '../../support/service';
import { until } from '../../support/wait';
import { allReady, startInstance, type Instance, type Role } from './topology';
import { ALL_PROJECTIONS } from '@support/catalog';

/**
 * The crash test: the scale-out as separate processes on this machine — the embedded event
 * store file shared by the writers, FerretDB as the read store, NATS as the bus; api ×2,
 * projector, relay, dispatcher ×2. 1,000 writes through both APIs with an HTTPS receiver
 * subscribed to `*`, each with an Idempotency-Key and retried with it, as a careful client
 * does, after a 5xx or a lost connection; at the 400th write one dispatcher, the relay and the
 * projector are SIGKILLed (and the relay and projector restarted), at the 600th one API (and
 * restarted). Then: every acknowledged write is readable from both APIs, none was made twice,
 * every event was delivered at least once, no attempt was sent twice, the read models equal a
 * fresh rebuild, and the per-workspace rate limit held across both APIs.
 */
const skip = mongoSkip() || (natsServerInstalled() || process.env.CI === 'true' ? false : 'nats-server not installed: the crash test is not run');

const WORKSPACES = 4;
const PER_WORKSPACE = { customers: 50, conversations: 50, messagesPerConversation: 3 }; // 250 writes each
const LANES = 5;

t.test('crash test: 1,000 writes, SIGKILLs, nothing lost', { skip, timeout: 600_000 }, async (t) => {
  const nats = await LocalNatsServer.start();
  const receiver = await Receiver.start();
  const dataDir = tempDir('crash-');
  const mongoUrl = withDatabase(await mongoServerUrl(), databaseFor(dataDir));
  const env = {
    NATS_URL: nats.url,
    MONGODB_URL: mongoUrl,
    LEASE_TTL_MS: '2000',
    // Writes made while the projector is down answer 503 write_committed after 3 s; the
    // client's retry with the same key answers the saved resource once the successor caught up.
    READ_YOUR_WRITES_TIMEOUT_MS: '3000',
    // Limits × 10: writes 600 per key and 1,800 per workspace a minute; agent calls 200 and 600.
    RATE_LIMIT_SCALE: '10',
    NODE_EXTRA_CA_CERTS: receiver.caFile,
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    WEBHOOK_RETRY_BASE_MS: '200',
    WEBHOOK_RETRY_MAX_MS: '1000',
  };
  const running = new Set<Instance>();
  const mongo = new MongoClient(mongoUrl);
  // FerretDB 1.x runs a conditional update as a read, then a write: two racing bookings of one
  // delivery can both pass (the read-store contract skips its compare-and-set test there too).
  const atomicUpdates = typeof (await mongo.db().admin().command({ buildInfo: 1 })).ferretdbVersion !== 'string';
  t.teardown(async () => {
    await Promise.all([...running].map((i) => i.stop('SIGKILL')));
    await mongo
      .db()
      .dropDatabase()
      .catch(() => undefined);
    await mongo.close();
    await receiver.close();
    await nats.destroy();
    removeDir(dataDir);
  });
  const everyone: Instance[] = [];
  // On a failure, the errors the processes logged say why.
  t.teardown(() => {
    if (t.passing()) return;
    for (const i of everyone) for (const line of i.output.filter((l) => l.includes('"level":"error"')).slice(0, 5)) t.comment(`${i.name}: ${line}`);
  });
  const start = async (role: Role, name: string) => {
    const i = await startInstance(role, name, dataDir, env);
    running.add(i);
    everyone.push(i);
    return i;
  };
  const kill = async (i: Instance) => {
    await i.stop('SIGKILL');
    running.delete(i);
  };
  const admin = async (...args: string[]) => {
    const r = await run(process.execPath, [serviceMain('admin'), ...args, '--json'], { DATA_DIR: dataDir, MONGODB_URL: mongoUrl });
    if (r.code !== 0) throw new Error(`admin ${args.join(' ')}: ${r.stderr}`);
    return JSON.parse(r.stdout) as Record<string, any>;
  };

  const began = Date.now();
  const phase = (what: string) => t.comment(`${what} after ${Math.round((Date.now() - began) / 1000)} s`);
  let projector = await start('projector', 'projector-1');
  let relay = await start('relay', 'relay-1');
  const dispatchers = [await start('dispatcher', 'dispatcher-1'), await start('dispatcher', 'dispatcher-2')];
  const apis = [await start('api', 'api-1'), await start('api', 'api-2')];
  await allReady([...running]);

  // Some first attempts fail (503), so retries happen across the crash too.
  const firstSeen = new Set<string>();
  receiver.reply = (r) => {
    const delivery = String(r.headers['service-webhook-id']);
    const first = !firstSeen.has(delivery);
    firstSeen.add(delivery);
    return first && delivery.charCodeAt(delivery.length - 1) % 7 === 0 ? { status: 503 } : { status: 200 };
  };

  interface Tenant {
    id: string;
    key: string;
    endpoint: string;
    /** Through both APIs, as they are now (one is restarted on another port). */
    readonly clients: Client[];
    customers: string[];
    conversations: string[];
    messages: Map<string, string[]>;
  }
  const tenants: Tenant[] = [];
  for (let w = 0; w < WORKSPACES; w++) {
    const ws = await admin('workspace', 'create', '--name', `Crash ${w}`);
    const key = await admin('key', 'create', '--workspace', ws.id, '--name', 'writer');
    const clients = () => apis.map((a) => client(a.baseUrl, key.key));
    await until(async () => (await clients()[1].get('/me')).status === 200, 10_000, 100, 'the key works on both APIs');
    const endpoint = await clients()[0].post('/webhook_endpoints', { url: receiver.url(`/hook/${w}`), enabled_events: ['*'] });
    t.equal(endpoint.status, 201);
    tenants.push({
      id: ws.id,
      key: key.key,
      endpoint: endpoint.body.id,
      get clients() {
        return clients();
      },
      customers: [],
      conversations: [],
      messages: new Map(),
    });
  }

  // The writes: each workspace's in sequence of kinds, the two APIs alternating, workspaces in parallel.
  let writes = 0;
  const crashed: { done: Promise<void> | null } = { done: null };
  const crash = async () => {
    // One dispatcher, the relay and the projector die at once; the relay and projector come back.
    await Promise.all([kill(dispatchers[1]), kill(relay), kill(projector)]);
    relay = await start('relay', 'relay-2');
    projector = await start('projector', 'projector-2');
  };
  const apiCrashed: { done: Promise<void> | null } = { done: null };
  const crashApi = async () => {
    await kill(apis[0]);
    apis[0] = await start('api', 'api-3');
  };
  const wrote = (reply: { status: number; text: string }, what: string) => {
    if (reply.status !== 201) throw new Error(`${what}: ${reply.status} ${reply.text}`);
    writes += 1;
    if (writes === 400) crashed.done = crash();
    if (writes === 600) apiCrashed.done = crashApi();
  };
  // A careful client: one Idempotency-Key per write, the same key on every retry, the other API
  // after a 5xx, a 429 or a lost connection (a killed API answers nothing), until it is saved.
  const latencies: number[] = [];
  let retries = 0;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const post = async (tn: Tenant, first: number, path: string, body: unknown, key: string) => {
    const began = Date.now();
    for (let attempt = 0; ; attempt++) {
      const api = tn.clients[(first + attempt) % 2];
      const r = await api.post(path, body, { 'Idempotency-Key': key }).catch((err: unknown) => ({ status: 0, text: String(err), body: null }));
      if (r.status === 201 || attempt >= 60 || ![0, 429, 500, 502, 503].includes(r.status)) {
        latencies.push(Date.now() - began);
        return r as { status: number; text: string; body: any };
      }
      retries += 1;
      await sleep(250);
    }
  };
  // Five lanes per workspace, twenty writers in all; each lane's messages follow its conversations.
  await Promise.all(
    tenants.flatMap((tn, w) =>
      Array.from({ length: LANES }, async (_, lane) => {
        const share = (n: number) => Array.from({ length: n / LANES }, (_, i) => lane * (n / LANES) + i);
        for (const i of share(PER_WORKSPACE.customers)) {
          const r = await post(tn, i + w + lane, '/customers', { email: `c${i}@ws${w}.example.com`, name: `Customer ${i}` }, `cus-${w}-${i}`);
          wrote(r, 'customer');
          tn.customers.push(r.body.id);
        }
        const mine: string[] = [];
        for (const i of share(PER_WORKSPACE.conversations)) {
          const r = await post(tn, i + w + lane, '/conversations', { metadata: { case: i } }, `conv-${w}-${i}`);
          wrote(r, 'conversation');
          tn.conversations.push(r.body.id);
          tn.messages.set(r.body.id, []);
          mine.push(r.body.id);
        }
        for (let m = 0; m < PER_WORKSPACE.messagesPerConversation; m++) {
          for (const [i, conversation] of mine.entries()) {
            const r = await post(tn, i + m + w + lane, `/conversations/${conversation}/messages`, { content: `Message ${m}` }, `msg-${conversation}-${m}`);
            wrote(r, 'message');
            tn.messages.get(conversation)!.push(r.body.id);
          }
        }
      }),
    ),
  );
  phase('1,000 writes');
  t.equal(writes, 1000, '1,000 writes acknowledged');
  t.ok(crashed.done && apiCrashed.done, 'the crashes happened mid-run');
  await crashed.done;
  await apiCrashed.done;
  const sorted = [...latencies].sort((a, b) => a - b);
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
  t.comment(`writes until saved, retries included: p50 ${pct(50)} ms, p99 ${pct(99)} ms, max ${sorted[sorted.length - 1]} ms; ${retries} retries`);

  // Every acknowledged write is readable from both APIs.
  for (const tn of tenants) {
    for (const api of tn.clients) {
      const missing: string[] = [];
      for (const id of tn.customers) if ((await api.get(`/customers/${id}`)).status !== 200) missing.push(id);
      for (const id of tn.conversations) {
        if ((await api.get(`/conversations/${id}`)).status !== 200) missing.push(id);
        const listed = (await api.get(`/conversations/${id}/messages?limit=100`)).body.data.map((m: { id: string }) => m.id);
        for (const m of tn.messages.get(id)!) if (!listed.includes(m)) missing.push(m);
      }
      t.strictSame(missing, [], `workspace ${tn.id}: every write readable`);
    }
  }

  phase('reads checked');
  // No write was made twice: as many created events in the log as writes acknowledged.
  for (const tn of tenants) {
    const log = await run(process.execPath, [serviceMain('admin'), 'events', 'replay', '--workspace', tn.id, '--json'], {
      DATA_DIR: dataDir,
      MONGODB_URL: mongoUrl,
    });
    const counts: Record<string, number> = { 'customer.created': 0, 'conversation.created': 0, 'message.created': 0 };
    for (const line of log.stdout.trim().split('\n')) {
      const type = (JSON.parse(line) as { type: string }).type;
      if (type in counts) counts[type] += 1;
    }
    t.strictSame(counts, { 'customer.created': 50, 'conversation.created': 50, 'message.created': 150 }, `workspace ${tn.id}: no write made twice`);
  }
  // Every event was delivered at least once; no attempt was sent twice.
  for (const [w, tn] of tenants.entries()) {
    const endpoint = (await tn.clients[0].get(`/webhook_endpoints/${tn.endpoint}`)).body;
    const replay = await run(process.execPath, [serviceMain('admin'), 'events', 'replay', '--workspace', tn.id, '--json'], {
      DATA_DIR: dataDir,
      MONGODB_URL: mongoUrl,
    });
    const expected = replay.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; type: string; metadata: { occurred_at: string } })
      .filter((e) => e.metadata.occurred_at >= endpoint.created_at && ['customer.created', 'conversation.created', 'message.created'].includes(e.type))
      .map((e) => webhookEventId(e.id, e.metadata.occurred_at));
    t.equal(expected.length, 250, `workspace ${w}: 250 webhook events in the log`);
    const path = `/hook/${w}`;
    await until(
      () => {
        const got = new Set(receiver.on(path).map((r) => r.headers['service-event-id'] as string));
        return expected.every((id) => got.has(id));
      },
      120_000,
      200,
      `workspace ${w}: every event delivered`,
    );
    // Each delivery's requests: never more than the attempts taken (each attempt is a lease,
    // inserted once: whoever inserts it sends it, so an attempt is sent once), and on a server
    // whose conditional updates are atomic, never more than its booked attempts either.
    const deliveries: { id: string; attempt_count: number; status: string }[] = [];
    let after = '';
    for (;;) {
      const page = (await tn.clients[0].get(`/webhook_endpoints/${tn.endpoint}/deliveries?limit=100${after}`)).body;
      deliveries.push(...page.data);
      if (!page.has_more) break;
      after = `&starting_after=${page.data[page.data.length - 1].id}`;
    }
    const sent = new Map<string, number>();
    for (const r of receiver.on(path)) sent.set(r.headers['service-webhook-id'] as string, (sent.get(r.headers['service-webhook-id'] as string) ?? 0) + 1);
    const leases = new Map<string, number>();
    for (const l of await mongo
      .db()
      .collection<{ _id: string }>('rm_webhook_delivery_leases')
      .find({}, { projection: { _id: 1 } })
      .toArray()) {
      const delivery = l._id.slice(0, l._id.lastIndexOf(':'));
      leases.set(delivery, (leases.get(delivery) ?? 0) + 1);
    }
    const overSent = deliveries
      .filter((d) => (sent.get(d.id) ?? 0) > (leases.get(d.id) ?? 0))
      .map((d) => `${d.id}: ${sent.get(d.id)} sent, ${leases.get(d.id) ?? 0} attempts taken`);
    t.strictSame(overSent, [], `workspace ${w}: no attempt sent twice`);
    const overBooked = deliveries
      .filter((d) => (sent.get(d.id) ?? 0) > d.attempt_count)
      .map((d) => `${d.id}: ${sent.get(d.id)} sent, ${d.attempt_count} booked`);
    if (atomicUpdates) t.strictSame(overBooked, [], `workspace ${w}: every attempt sent is booked`);
    else if (overBooked.length) t.comment(`workspace ${w}: FerretDB (conditional updates not atomic) lost the booking of ${overBooked.join('; ')}`);
  }

  phase('deliveries checked');
  // The per-workspace chat limit (60 × 10 per minute) held across both APIs: in one window, 800
  // agent calls (refused at validation, so cheap) from four keys (200 each, their own limit)
  // through both APIs: exactly 600 pass.
  const limited = await admin('workspace', 'create', '--name', 'Limits');
  const keys = await Promise.all([0, 1, 2, 3].map(() => admin('key', 'create', '--workspace', limited.id, '--name', 'k')));
  const clients = keys.flatMap((k) => apis.map((a) => client(a.baseUrl, k.key)));
  // Every key on both APIs (the keys are created concurrently: the last one is not the last projected).
  await until(async () => (await Promise.all(clients.map((c) => c.get('/me')))).every((r) => r.status === 200), 10_000, 100, 'limit keys work');
  // Start early in a window, so the requests do not straddle two.
  await until(() => Date.now() % 60_000 < 20_000, 61_000, 100, 'at least 40 s left in the minute');
  // Fifty requests in flight at a time.
  const statuses: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 50 }, async () => {
      while (next < 800) {
        const i = next++;
        statuses.push((await clients[i % clients.length].post('/agent/messages', {})).status);
      }
    }),
  );
  // Passed requests answer 400 (an empty body), the rest 429: any other status is a failure too.
  const byStatus: Record<number, number> = {};
  for (const s of statuses) byStatus[s] = (byStatus[s] ?? 0) + 1;
  t.strictSame(byStatus, { 400: 600, 429: 200 }, 'exactly the workspace limit across both APIs');

  phase('limits checked');
  // The read models equal a fresh rebuild from the log (projector stopped: nothing moves meanwhile).
  t.equal(await projector.stop('SIGTERM'), 0);
  running.delete(projector);
  const dump = async () => {
    const out: Record<string, unknown[]> = {};
    for (const p of ALL_PROJECTIONS) {
      out[p.collection.name] = await mongo
        .db()
        .collection(`rm_${p.collection.name}`)
        .find({}, { projection: { _pos: 0 } })
        .sort({ _id: 1 })
        .toArray();
    }
    return out;
  };
  const before = await dump();
  const rebuilt = await admin('projections', 'rebuild');
  t.ok(rebuilt.events > 1000);
  t.strictSame(await dump(), before, 'read models equal a fresh rebuild');
});
