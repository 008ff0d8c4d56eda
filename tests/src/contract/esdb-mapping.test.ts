import t from 'tap';
import { WrongExpectedVersionError, type AllStreamResolvedEvent } from '@eventstore/db-client';
import { WrongExpectedRevisionError } from '@support/eventstore';
import {
  batched,
  fromPosition,
  isDomain,
  newestDomainPosition,
  toExpected,
  toPortError,
  toPosition,
  toRecorded,
  typeFilter,
} from '@support/eventstore/dist/esdb-mapping';

// The EventStoreDB adapter's translations, without a server (none can run on these machines):
// the vendor's objects are built by hand in the shapes the client hands over.

const resolved = (over: { type?: string; streamId?: string; position?: { commit: bigint; prepare: bigint } } = {}): AllStreamResolvedEvent =>
  ({
    event: {
      id: '5f0c4ef4-2a0b-4c1e-9a51-8a1a2b3c4d5e',
      streamId: over.streamId ?? 'customer-cus_1',
      revision: 3n,
      type: over.type ?? 'customer.created',
      data: { id: 'cus_1' },
      metadata: { workspace_id: 'ws_1', actor: 'key_1', request_id: null, occurred_at: '2026-01-01T00:00:00.000Z' },
      isJson: true,
      created: new Date(0),
      position: 'position' in over ? over.position : { commit: 120n, prepare: 118n },
    },
  }) as unknown as AllStreamResolvedEvent;

t.test('a recorded event keeps every field; positions become the port’s', async (t) => {
  t.strictSame(toRecorded(resolved()), {
    id: '5f0c4ef4-2a0b-4c1e-9a51-8a1a2b3c4d5e',
    stream: 'customer-cus_1',
    revision: 3,
    type: 'customer.created',
    data: { id: 'cus_1' },
    metadata: { workspace_id: 'ws_1', actor: 'key_1', request_id: null, occurred_at: '2026-01-01T00:00:00.000Z' },
    position: { commit: 120n, prepare: 118n },
  });
  t.strictSame(toPosition({ commit: 7n, prepare: 6n }), { commit: 7n, prepare: 6n });
  t.equal(fromPosition({ commit: -1n, prepare: -1n }), 'start', "the port's START reads from the log's start");
  t.strictSame(fromPosition({ commit: 5n, prepare: 4n }), { commit: 5n, prepare: 4n });
});

t.test('system and link events are not domain events', async (t) => {
  t.strictSame(
    [resolved(), resolved({ type: '$statsCollected' }), resolved({ streamId: '$ce-customer' }), { event: undefined } as unknown as AllStreamResolvedEvent].map(
      isDomain,
    ),
    [true, false, false, false],
  );
});

t.test('expected revisions', async (t) => {
  t.strictSame([toExpected('any'), toExpected('no_stream'), toExpected(4)], ['any', 'no_stream', 4n]);
});

t.test("the vendor's concurrency error becomes the port's; others pass unchanged", async (t) => {
  const vendor = new WrongExpectedVersionError(undefined, { streamName: 'customer-cus_1', expected: 2n, current: 5n });
  const mapped = toPortError(vendor, 'customer-cus_1', 2);
  t.ok(mapped instanceof WrongExpectedRevisionError);
  t.match(mapped, { stream: 'customer-cus_1', expected: 2, actual: 5 });
  const noStream = toPortError(new WrongExpectedVersionError(undefined, { streamName: 's', expected: 0n, current: 'no_stream' }), 's', 0);
  t.match(noStream, { actual: 'no_stream' });
  const other = new Error('unavailable');
  t.equal(toPortError(other, 's', 'any'), other);
});

t.test('the subscription filter names exactly our event types', async (t) => {
  const filter = typeFilter(['customer.created', 'tag.deleted']) as unknown as { filterOn: string; regex: string };
  t.strictSame({ on: filter.filterOn, regex: filter.regex }, { on: 'eventType', regex: '^(?:customer\\.created|tag\\.deleted)$' });
  const re = new RegExp(filter.regex);
  t.strictSame(
    ['customer.created', 'tag.deleted', 'customer_created', 'xcustomer.created', '$stats'].map((s) => re.test(s)),
    [true, true, false, false, false],
  );
  t.match(typeFilter(), { filterOn: 'eventType' }, 'no types: everything but system events');
});

/** A source the test feeds by hand. */
const feed = <T>() => {
  const items: T[] = [];
  let wake: (() => void) | null = null;
  let ended = false;
  let error: Error | null = null;
  const source: AsyncIterable<T> = {
    async *[Symbol.asyncIterator]() {
      for (;;) {
        if (items.length) yield items.shift()!;
        else if (error) throw error;
        else if (ended) return;
        else await new Promise<void>((r) => (wake = r));
      }
    },
  };
  return {
    source,
    push: (...xs: T[]) => {
      items.push(...xs);
      wake?.();
    },
    end: () => {
      ended = true;
      wake?.();
    },
    fail: (e: Error) => {
      error = e;
      wake?.();
    },
  };
};

t.test('events that arrive while a batch is handled come as the next batch, in order', async (t) => {
  const f = feed<number>();
  const got: number[][] = [];
  let release: () => void = () => undefined;
  const consumer = (async () => {
    for await (const batch of batched(f.source, 3)) {
      got.push(batch);
      if (got.length === 1) await new Promise<void>((r) => (release = r)); // a slow handler
    }
  })();
  f.push(1);
  await new Promise((r) => setImmediate(r));
  f.push(2, 3, 4, 5);
  await new Promise((r) => setImmediate(r));
  release();
  f.end();
  await consumer;
  t.strictSame(got, [[1], [2, 3, 4], [5]], 'one, then what came meanwhile (at most 3 at once)');
});

t.test('a source error comes after the events before it', async (t) => {
  const f = feed<number>();
  f.push(1, 2);
  f.fail(new Error('connection lost'));
  const got: number[] = [];
  await t.rejects(
    (async () => {
      for await (const batch of batched(f.source, 10)) got.push(...batch);
    })(),
    /connection lost/,
  );
  t.strictSame(got, [1, 2]);
});

t.test("the log's head is found past any number of system events", async (t) => {
  // A log of 1,000 records: domain events at commits 10 and 20, then 980 system events.
  const log = Array.from({ length: 1000 }, (_, i) =>
    resolved({ type: i === 10 || i === 20 ? 'customer.created' : '$stats', position: { commit: BigInt(i), prepare: BigInt(i) } }),
  );
  const pages: string[] = [];
  // Backwards from a position includes it, as EventStoreDB's read does.
  const page = async function* (from: 'end' | { commit: bigint }, count: number) {
    pages.push(from === 'end' ? 'end' : String(from.commit));
    const top = from === 'end' ? log.length - 1 : Number(from.commit);
    for (let i = top; i >= 0 && i > top - count; i--) yield log[i];
  };
  t.strictSame(await newestDomainPosition(page, 200), { commit: 20n, prepare: 20n });
  t.strictSame(pages, ['end', '800', '601', '402', '203'], 'page after page, never giving up at the first page of system events');
  const systemOnly = log.map((r, i) => (i === 10 || i === 20 ? resolved({ type: '$x', position: { commit: BigInt(i), prepare: BigInt(i) } }) : r));
  const onlySystem = async function* (from: 'end' | { commit: bigint }, count: number) {
    const top = from === 'end' ? systemOnly.length - 1 : Number(from.commit);
    for (let i = top; i >= 0 && i > top - count; i--) yield systemOnly[i];
  };
  t.strictSame(await newestDomainPosition(onlySystem, 200), { commit: -1n, prepare: -1n }, "no domain event at all: the port's START");
});
