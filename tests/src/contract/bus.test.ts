import { randomBytes } from 'node:crypto';
import { connect } from 'nats';
import t from 'tap';
import { LocalNatsServer, natsServerInstalled } from '../support/nats';
import { MemoryBus } from '@support/bus/memory';
import { NatsBus, NatsBusOptions } from '@support/bus/nats';
import { busContract } from '@support/bus/dist/contract';
import { EngineUnavailable } from '@support/kernel';
import { until } from '../support/wait';

t.test('in-process adapter', async (t) => {
  busContract(t, async () => new MemoryBus());
});

// ---- NATS JetStream: NATS_URL, or a nats-server started here, or skipped ----

const natsSkip = process.env.NATS_URL || natsServerInstalled() ? false : 'nats-server not installed and NATS_URL not set: NATS contract not run';

const waitFor = (cond: () => boolean, ms = 10_000) => until(cond, ms, 10);

t.test('nats adapter', { skip: natsSkip }, async (t) => {
  let server: LocalNatsServer | undefined;
  let url = process.env.NATS_URL;
  if (!url) {
    server = await LocalNatsServer.start();
    url = server.url;
  }
  const natsUrl = url;
  // "Nothing more arrives" is asserted once a marker published last has arrived: a durable's
  // subscriber gets its messages in order, so a duplicate or a stray would have come before it.
  t.comment(`NATS at ${natsUrl}${server ? ' (nats-server started by this test)' : ' (NATS_URL)'}`);

  // Each run gets its own stream and subject namespace, so a shared server (NATS_URL) stays
  // clean and runs cannot see each other's messages; the streams are deleted at the end.
  const streams = new Set<string>();
  const options = (): NatsBusOptions & { stream: string } => {
    const id = randomBytes(4).toString('hex');
    return { stream: `CT_${id}`, subjectPrefix: `ct${id}`, subjects: ['ct.>', 'support.>'] };
  };
  const open = async (o: NatsBusOptions & { stream: string }): Promise<NatsBus> => {
    streams.add(o.stream);
    return NatsBus.connect(natsUrl, o);
  };
  t.teardown(async () => {
    if (server) {
      await server.destroy(); // the store goes with it
      return;
    }
    const nc = await connect({ servers: natsUrl });
    const jsm = await nc.jetstreamManager();
    for (const s of streams) await jsm.streams.delete(s).catch(() => undefined);
    await nc.close();
  });

  t.test('contract', async (t) => {
    busContract(t, () => open(options()));
  });

  t.test('stream configuration', async (t) => {
    const o = { ...options(), subjects: ['support.>'] };
    const bus = await open(o);
    const nc = await connect({ servers: natsUrl });
    const jsm = await nc.jetstreamManager();
    const info = await jsm.streams.info(o.stream);
    t.strictSame(info.config.subjects, [`${o.subjectPrefix}.support.>`]);
    t.equal(info.config.storage, 'file', 'file storage: messages survive a restart');
    t.equal(info.config.duplicate_window, 120_000 * 1e6, 'two-minute duplicate window');
    await t.rejects(
      bus.publish('other.thing', 'm', {}),
      /outside the subjects of stream/,
      'a subject the stream does not carry is an error, not a silent loss',
    );
    await t.rejects(
      bus.consume({ durable: 'other', subject: 'other.>' }, async () => undefined),
      /outside the subjects of stream/,
    );
    await t.rejects(bus.signal('support.checkpoint', {}), /signals are not stored/, 'a signal on a stream subject would be stored: refused');
    // Connecting with other subjects adds them to the existing stream, keeping the old ones.
    const again = await NatsBus.connect(natsUrl, { ...o, subjects: ['admin.>'] });
    t.strictSame([...again.subjects].sort(), [`${o.subjectPrefix}.admin.>`, `${o.subjectPrefix}.support.>`]);
    t.strictSame((await jsm.streams.info(o.stream)).config.subjects.sort(), [`${o.subjectPrefix}.admin.>`, `${o.subjectPrefix}.support.>`]);
    await again.publish('admin.x', 'a1', {});
    // A subject already covered by the stream's is not added again.
    const covered = await NatsBus.connect(natsUrl, { ...o, subjects: ['support.ticket.*'] });
    t.strictSame([...covered.subjects].sort(), [`${o.subjectPrefix}.admin.>`, `${o.subjectPrefix}.support.>`]);
    await covered.close();
    await nc.close();
    await again.close();
    await bus.close();
  });

  t.test('a durable resumes on a new connection after its subscriber closed', async (t) => {
    const o = options();
    const durable = 'resume';
    // Each entry names the subscription that got it: a message that reached the closed one shows.
    const got: [string, string, unknown, number][] = [];
    const handler = (by: string) => async (m: { id: string; data: unknown; deliveryCount: number; ack(): Promise<void> }) => {
      got.push([by, m.id, m.data, m.deliveryCount]);
      await m.ack();
    };

    const subscriber = await open(o);
    await subscriber.consume({ durable, subject: 'support.>' }, handler('first'));
    const publisher = await open(o);
    await publisher.publish('support.ticket.created', 'one', { n: 1 });
    await waitFor(() => got.length === 1);
    await subscriber.close(); // closes the subscription and drains the connection

    await publisher.publish('support.ticket.created', 'two', { n: 2 });
    await publisher.publish('support.ticket.updated', 'three', { n: 3 });
    const resumed = await open(o);
    await resumed.consume({ durable, subject: 'support.>' }, handler('resumed'));
    await publisher.publish('support.ticket.updated', 'marker', null);
    await waitFor(() => got.some(([, id]) => id === 'marker'));
    t.strictSame(
      got,
      [
        ['first', 'one', { n: 1 }, 1],
        ['resumed', 'two', { n: 2 }, 1],
        ['resumed', 'three', { n: 3 }, 1],
        ['resumed', 'marker', null, 1],
      ],
      'nothing reached the closed subscription; the resumed one gets each message once, in order',
    );
    await resumed.close();
    await publisher.close();
  });

  t.test('the same id published twice within the window is delivered once', async (t) => {
    const o = options();
    const consumerBus = await open(o);
    const got: string[] = [];
    await consumerBus.consume({ durable: 'dedup', subject: 'support.>' }, async (m) => {
      got.push(`${m.id}:${JSON.stringify(m.data)}`);
      await m.ack();
    });
    // From two connections, as two processes retrying the same publish would.
    const a = await open(o);
    const b = await open(o);
    await a.publish('support.event', 'same-id', { v: 1 });
    await b.publish('support.event', 'same-id', { v: 2 });
    await a.publish('support.event', 'same-id', { v: 3 });
    await b.publish('support.event', 'other-id', { v: 4 });
    await a.publish('support.event', 'marker', null);
    await waitFor(() => got.includes('marker:null'));
    t.strictSame(got, ['same-id:{"v":1}', 'other-id:{"v":4}', 'marker:null']);
    await Promise.all([a.close(), b.close(), consumerBus.close()]);
  });

  t.test('a durable reused with another ack wait or filter is updated', async (t) => {
    const o = options();
    const bus = await open(o);
    const nc = await connect({ servers: natsUrl });
    const jsm = await nc.jetstreamManager();
    const first = await bus.consume({ durable: 'reused', subject: 'support.a.>', ackWaitMs: 1000 }, async (m) => {
      await m.ack();
    });
    let info = await jsm.consumers.info(o.stream, 'reused');
    t.equal(info.config.ack_wait, 1000 * 1e6);
    t.equal(info.config.filter_subject, `${o.subjectPrefix}.support.a.>`);
    t.equal(info.config.max_deliver, -1);
    t.equal(info.config.ack_policy, 'explicit');
    await first.close();
    const got: string[] = [];
    const second = await bus.consume({ durable: 'reused', subject: 'support.>', ackWaitMs: 2000 }, async (m) => {
      got.push(m.subject);
      await m.ack();
    });
    info = await jsm.consumers.info(o.stream, 'reused');
    t.equal(info.config.ack_wait, 2000 * 1e6);
    t.equal(info.config.filter_subject, `${o.subjectPrefix}.support.>`);
    await bus.publish('support.b.1', 'b1', {});
    await waitFor(() => got.length === 1);
    t.strictSame(got, ['support.b.1'], 'the subject handed to the handler has no prefix');
    await second.close();
    await nc.close();
    await bus.close();
  });

  t.test('a durable created after messages were published receives those still in the stream', async (t) => {
    const o = options();
    const bus = await open(o);
    // The relay may publish before the dispatcher's durable was ever created.
    await bus.publish('support.events.w.a', 'early-1', { n: 1 });
    await bus.publish('support.other', 'early-other', {});
    await bus.publish('support.events.w.b', 'early-2', { n: 2 });
    const got: string[] = [];
    const sub = await bus.consume({ durable: 'late', subject: 'support.events.>' }, async (m) => {
      got.push(m.id);
      await m.ack();
    });
    await bus.publish('support.events.w.c', 'later', { n: 3 });
    await bus.publish('support.events.w.d', 'marker', null);
    await waitFor(() => got.includes('marker'));
    t.strictSame(got, ['early-1', 'early-2', 'later', 'marker']);
    await sub.close();
    await bus.close();
  });

  t.test('a slow handler: close() waits for the message in flight', async (t) => {
    const o = options();
    const bus = await open(o);
    let finished = false;
    let started = false;
    const sub = await bus.consume({ durable: 'slow', subject: 'support.>' }, async (m) => {
      started = true;
      // The slow handler is the scenario: close() is called while this is still running.
      await new Promise((r) => setTimeout(r, 300));
      await m.ack();
      finished = true;
    });
    await bus.publish('support.e', 'x', null);
    await waitFor(() => started);
    await sub.close();
    t.ok(finished, 'the handler ran to completion before close() returned');
    await bus.close();
  });

  t.test('messages survive a nats-server restart', { skip: server ? false : 'NATS_URL is an external server: not restarted' }, async (t) => {
    const o = options();
    const durable = 'restart';
    const got: string[] = [];
    const first = await open(o);
    const sub = await first.consume({ durable, subject: 'support.>' }, async (m) => {
      got.push(m.id);
      await m.ack();
    });
    await sub.close();
    await first.publish('support.e', 'kept', {});
    await first.close();

    await server!.restart();

    const second = await open(o);
    await second.consume({ durable, subject: 'support.>' }, async (m) => {
      got.push(m.id);
      await m.ack();
    });
    await waitFor(() => got.length === 1, 10_000);
    t.strictSame(got, ['kept']);
    await second.close();
  });

  t.test(
    'a server that is down fails a publish or a connect as unavailable, a passing condition',
    { skip: server ? false : 'NATS_URL is an external server: not stopped' },
    async (t) => {
      const o = options();
      const bus = await open(o);
      await server!.stop();
      const failure = (p: Promise<unknown>) =>
        p.then(
          () => null,
          (e: unknown) => (e instanceof EngineUnavailable ? e.engine : String(e)),
        );
      t.strictSame(await failure(bus.publish('support.e', 'down', {})), 'bus', 'a publish');
      t.strictSame(await failure(NatsBus.connect(natsUrl, o)), 'bus', 'a connect');
      await server!.restart();
      await bus.close();
    },
  );

  t.test(
    'a bus whose server restarts reconnects and keeps consuming',
    { skip: server ? false : 'NATS_URL is an external server: not restarted' },
    async (t) => {
      const o = options();
      const bus = await open(o);
      const got: string[] = [];
      await bus.consume({ durable: 'reconnect', subject: 'support.>' }, async (m) => {
        got.push(m.id);
        await m.ack();
      });
      await bus.publish('support.e', 'before', {});
      await waitFor(() => got.length === 1);
      await server!.restart();
      // The client reconnects on its own; publish retries until it has.
      let lastError: unknown = null;
      await until(
        () =>
          bus.publish('support.e', 'after', {}).then(
            () => true,
            (e) => {
              lastError = e;
              return false;
            },
          ),
        15_000,
        200,
        'a publish after the restart',
      ).catch((e) => {
        throw lastError ?? e;
      });
      await waitFor(() => got.length === 2, 15_000);
      t.strictSame(got, ['before', 'after']);
      await bus.close();
    },
  );
});
