import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import t from 'tap';
import { silentLogger } from '@support/application';
import { BusMessage } from '@support/bus';
import { MemoryBus } from '@support/bus/memory';
import { fromBusMessage } from '@support/application';
import { NewEvent } from '@support/eventstore';
import { SqliteEventStore } from '@support/eventstore/sqlite';
import { SqliteReadStore } from '@support/readstore/sqlite';
import { Relay } from '@support/relay';
import { removeDir, tempDir } from '../support/service';
import { until } from '../support/wait';

const ev = (type: string, ws: string | null = 'ws_1'): NewEvent => ({
  id: randomUUID(),
  type,
  data: { n: type },
  metadata: { workspace_id: ws, actor: 'system', request_id: null, occurred_at: new Date().toISOString() },
});

t.test('the relay publishes every event in log order, resumes from its checkpoint, and a re-publish is dropped', async (t) => {
  const dir = tempDir('relay-');
  const events = new SqliteEventStore(join(dir, 'events.sqlite'));
  const reads = new SqliteReadStore(join(dir, 'read.sqlite'));
  const bus = new MemoryBus();
  t.teardown(async () => {
    await bus.close();
    await events.close();
    await reads.close();
    removeDir(dir);
  });
  const got: BusMessage[] = [];
  await bus.consume({ durable: 'test', subject: 'support.events.>' }, async (m) => {
    got.push(m);
    await m.ack();
  });

  await events.append('conversation-a', [ev('conversation.created'), ev('message.created')], 'no_stream');
  await events.append('workspace-b', [ev('workspace.created', null)], 'no_stream');
  const first = new Relay(events, reads, bus, silentLogger);
  await first.start();
  await until(() => got.length >= 3);
  t.strictSame(
    got.map((m) => m.subject),
    ['support.events.ws_1.conversation.created', 'support.events.ws_1.message.created', 'support.events._.workspace.created'],
  );
  const recorded = fromBusMessage(got[1].data);
  t.equal(recorded.type, 'message.created');
  t.strictSame([recorded.data, recorded.metadata.workspace_id], [{ n: 'message.created' }, 'ws_1'], 'data and metadata make the trip');
  t.equal(recorded.position.commit, 2n, 'positions survive the trip as bigints');
  t.equal(got[1].id, recorded.id, 'the message id is the event id');
  await first.stop();
  t.equal(await reads.getCheckpoint('relay'), '3');

  await events.append('conversation-a', [ev('conversation.updated')], 1);
  const second = new Relay(events, reads, bus, silentLogger);
  await second.start();
  await until(() => got.length >= 4);
  t.equal(got[3].subject, 'support.events.ws_1.conversation.updated', 'resumed after the checkpoint');
  await second.stop();

  // A crash before the checkpoint was saved: the same events are published again, and dropped.
  // A new event after them is the marker: the consumer gets messages in order, so once it has
  // arrived, any re-published duplicate would have too.
  await reads.setCheckpoint('relay', '1');
  const third = new Relay(events, reads, bus, silentLogger);
  await third.start();
  await events.append('conversation-a', [ev('conversation.closed')], 2);
  await until(() => got.some((m) => m.subject.endsWith('.conversation.closed')));
  await third.stop();
  t.strictSame(
    got.map((m) => m.subject),
    [
      'support.events.ws_1.conversation.created',
      'support.events.ws_1.message.created',
      'support.events._.workspace.created',
      'support.events.ws_1.conversation.updated',
      'support.events.ws_1.conversation.closed',
    ],
    'no duplicates reached the consumer',
  );
  t.equal(await reads.getCheckpoint('relay'), '5');
});
