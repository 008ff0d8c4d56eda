import { createServer } from 'node:net';
import t from 'tap';
import { EngineUnavailable } from '@support/kernel';
import { toApiError } from '@support/http';
import { EsdbEventStore } from '@support/eventstore/esdb';

// An EventStoreDB that cannot be reached (stopped, a network cut, an election under way): each
// operation fails as EngineUnavailable, which the API answers as a 503 with Retry-After, rather
// than an opaque 500. No server is needed: the adapter is pointed at a port nobody listens on.

const closedPort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

t.test('an unreachable EventStoreDB fails appends, reads and the head as EngineUnavailable, a 503', async (t) => {
  const store = new EsdbEventStore(`esdb://127.0.0.1:${await closedPort()}?tls=false`);
  t.teardown(() => store.close());
  const event = { id: '0190e5a4-0000-7000-8000-000000000001', type: 'tag.created', data: { id: 'tag_1' }, metadata: {} };
  const failures = await Promise.all(
    [
      () => store.append('tag-tag_1', [event as never], 'no_stream'),
      () => store.appendMany([{ stream: 'tag-tag_1', events: [event as never], expected: 'no_stream' }]),
      () => store.readStream('tag-tag_1'),
      () => store.head(),
    ].map((op) =>
      op().then(
        () => null,
        (err: unknown) => err,
      ),
    ),
  );
  t.strictSame(
    failures.map((f) => [f instanceof EngineUnavailable, (f as EngineUnavailable | null)?.engine]),
    [
      [true, 'event store'],
      [true, 'event store'],
      [true, 'event store'],
      [true, 'event store'],
    ],
    failures.map(String).join('; '),
  );
  const answer = toApiError(failures[0]);
  t.strictSame([answer?.status, answer?.code, answer?.headers], [503, 'service_unavailable', { 'Retry-After': '2' }]);
});
