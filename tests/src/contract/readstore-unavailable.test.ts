import t from 'tap';
import { MongoBulkWriteError, MongoNetworkError } from 'mongodb';
import { EngineUnavailable } from '@support/kernel';
import { toApiError } from '@support/http';
import { MongoReadStore, unavailableIfDisconnected } from '@support/readstore/mongo';
import { LocalFerretDb, mongoSkip } from '../support/ferret';
import { until } from '../support/wait';

// A read store that stops answering (an operator restarting FerretDB, a network cut): each
// operation fails within the driver's server-selection bound as EngineUnavailable, which the
// API answers as a 503 with Retry-After, and the same store works again once the server is back.

t.test('an unreachable MongoDB read store fails fast as EngineUnavailable, a 503, and recovers', { skip: mongoSkip() }, async (t) => {
  const server = await LocalFerretDb.start();
  t.teardown(() => server.destroy());
  const store = new MongoReadStore(server.url, 'unavailable');
  t.teardown(() => store.close());
  const docs = store.collection<{ id: string; n: number }>({ name: 'things' });
  await docs.put({ id: 'a', n: 1 });
  t.strictSame(await docs.get('a'), { id: 'a', n: 1 });

  await server.stop();
  const started = Date.now();
  const failed = await docs.get('a').then(
    () => null,
    (err: unknown) => err,
  );
  t.ok(failed instanceof EngineUnavailable, `the driver's error is EngineUnavailable (${String(failed)})`);
  t.ok(Date.now() - started < 15_000, `failed within the 10 s server-selection bound, not the driver's 30 s (${Date.now() - started} ms)`);
  const answer = toApiError(failed);
  t.strictSame([answer?.status, answer?.code, answer?.headers], [503, 'service_unavailable', { 'Retry-After': '2' }]);

  await server.restart();
  // The watchdog may be reconnecting the client as the server comes back (its probe, started by
  // the failure above, reached it): an operation under way then fails once, as documented.
  await until(holdsA(docs), 20_000, 200);
  t.strictSame(await docs.get('a'), { id: 'a', n: 1 }, 'the same store answers again once the server is back');
});

t.test("a lost connection's errors are EngineUnavailable, whichever way the driver passes them on", async (t) => {
  // A pooled connection the server closed fails at once with the socket's own error (the clean-clone CI met it).
  const ended = Object.assign(new Error('This socket has been ended by the other party'), { code: 'EPIPE' });
  t.ok(unavailableIfDisconnected(ended) instanceof EngineUnavailable, 'EPIPE');
  t.ok(unavailableIfDisconnected(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })) instanceof EngineUnavailable, 'ECONNRESET');
  // A bulk write passes the driver's error on inside its own.
  const bulk = new MongoBulkWriteError(new MongoNetworkError('connection 171 to 127.0.0.1:27017 closed'), {} as never);
  t.ok(unavailableIfDisconnected(bulk) instanceof EngineUnavailable, 'a bulk write cut off');
  const other = new Error('E11000 duplicate key');
  t.equal(unavailableIfDisconnected(other), other, 'any other error is left as it is');
});

t.test('a driver client wedged for good (its heartbeat waiting on a dead socket) is reconnected', { skip: mongoSkip() }, async (t) => {
  const server = await LocalFerretDb.start();
  t.teardown(() => server.destroy());
  const warnings: string[] = [];
  const store = new MongoReadStore(server.url, 'wedged', { warn: (msg) => void warnings.push(msg) });
  t.teardown(() => store.close());
  const docs = store.collection<{ id: string; n: number }>({ name: 'things' });
  await docs.put({ id: 'a', n: 1 });
  // The driver's race, made deterministic (the scale-out trial met it when FerretDB stopped):
  // the monitor's socket destroyed, a heartbeat asked for before its 'close' event (as an
  // operation's network error on another connection asks), and that error marking the server
  // Unknown. The heartbeat then waits for a 'drain' that never comes.
  await new Promise((r) => setTimeout(r, 600)); // past the driver's minimum heartbeat interval: the check runs at once
  const client = (store as unknown as { client: { topology: { s: { servers: Map<string, WedgeableServer> } } } }).client;
  const driverServer = [...client.topology.s.servers.values()][0];
  driverServer.monitor.connection.socket.destroy();
  driverServer.requestCheck();
  await new Promise((r) => setTimeout(r, 100));
  driverServer.handleError(new MongoNetworkError(`connection 7 to ${server.url} closed`));
  const failed = await docs.get('a').then(
    () => null,
    (err: unknown) => err,
  );
  t.ok(failed instanceof EngineUnavailable, `wedged: server selection fails while the server runs (${String(failed)})`);
  await until(holdsA(docs), 20_000, 200, 'the store answers again');
  t.strictSame(warnings, ['read store client cut off from a server that answers a new client; reconnecting it']);
});

/** Whether the store answers a read of 'a' (an error while it reconnects is a no). */
const holdsA = (docs: { get(id: string): Promise<unknown> }) => (): Promise<boolean> =>
  docs.get('a').then(
    (d) => d !== null,
    () => false,
  );

interface WedgeableServer {
  monitor: { connection: { socket: { destroy(): void } } };
  requestCheck(): void;
  handleError(err: Error): void;
}
