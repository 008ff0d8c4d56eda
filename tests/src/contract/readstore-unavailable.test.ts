import t from 'tap';
import { EngineUnavailable } from '@support/kernel';
import { toApiError } from '@support/http';
import { MongoReadStore, unavailableIfDisconnected } from '@support/readstore/mongo';
import { LocalFerretDb, mongoSkip } from '../support/ferret';

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
  t.strictSame(await docs.get('a'), { id: 'a', n: 1 }, 'the same store answers again once the server is back');
});

t.test("a lost connection's errors are EngineUnavailable, whichever way the driver passes them on", async (t) => {
  // A pooled connection the server closed fails at once with the socket's own error (the clean-clone CI met it).
  const ended = Object.assign(new Error('This socket has been ended by the other party'), { code: 'EPIPE' });
  t.ok(unavailableIfDisconnected(ended) instanceof EngineUnavailable, 'EPIPE');
  t.ok(unavailableIfDisconnected(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })) instanceof EngineUnavailable, 'ECONNRESET');
  const other = new Error('E11000 duplicate key');
  t.equal(unavailableIfDisconnected(other), other, 'any other error is left as it is');
});
