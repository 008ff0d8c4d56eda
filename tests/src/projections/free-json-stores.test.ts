import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import fc from 'fast-check';
import t, { type Test } from 'tap';
import { silentLogger } from '@support/application';
import { freeJsonProblem } from '@support/domain';
import { SqliteEventStore } from '@support/eventstore/sqlite';
import { Projector } from '@support/projections';
import { CONVERSATIONS, MESSAGES } from '@support/conversations';
import { CUSTOMERS } from '@support/customers';
import type { ReadStore } from '@support/readstore';
import { MongoReadStore } from '@support/readstore/mongo';
import { SqliteReadStore } from '@support/readstore/sqlite';
import { ev, messageData } from '../support/events';
import { mongoServerUrl, mongoSkip, withDatabase } from '../support/ferret';
import { atLimits, goodObject } from '../support/free-json-arb';
import { checkProperty, expectSame, propertySeed } from '../support/property';
import { removeDir, tempDir } from '../support/service';
import { ALL_PROJECTIONS } from '@support/catalog';

/**
 * The other half of "the API never appends an event a read store cannot apply": every
 * free-form value the limits accept, carried by the events that hold free-form JSON, goes
 * through every projection into each read-store adapter and comes back as it was given.
 */
const seed = propertySeed();
t.comment(`fast-check seed ${seed} (FC_SEED=${seed} replays it)`);

const roundTrips = async (t: Test, reads: ReadStore) => {
  const dir = tempDir('fj-');
  const events = new SqliteEventStore(join(dir, 'events.sqlite'));
  t.teardown(async () => {
    await events.close();
    removeDir(dir);
  });
  const projector = new Projector(events, reads, ALL_PROJECTIONS, silentLogger);
  let n = 0;
  const apply = async (value: Record<string, unknown>) => {
    if (freeJsonProblem(value) !== null) throw new Error('the generator made a value outside the limits');
    n++;
    const customer = `cus_${n}`;
    const conversation = `conv_${n}`;
    const message = `msg_${n}`;
    await events.append(
      `customer-${customer}`,
      [
        ev('customer.created', {
          id: customer,
          workspace_id: 'ws_1',
          email: null,
          phone: null,
          name: null,
          external_id: `x${n}`,
          metadata: value,
          status: 'active',
          tags: [],
        }),
      ],
      'no_stream',
    );
    await events.append(
      `conversation-${conversation}`,
      [
        ev('conversation.created', {
          id: conversation,
          workspace_id: 'ws_1',
          channel: 'api',
          channel_id: null,
          customer_id: customer,
          customer_name: null,
          customer_email: null,
          external_id: null,
          metadata: value,
          status: 'open',
          priority: 'normal',
          assignee: null,
          tags: [],
        }),
        ev('message.created', messageData(message, { conversation_id: conversation, attachments: [value, value], channel_metadata: value })),
      ],
      'no_stream',
    );
    const head = await events.head();
    await projector.applyBatch(await events.readAll({ commit: head.commit - 3n, prepare: head.prepare - 3n }, 10));
    const [c, v, m] = await Promise.all([
      reads.collection(CUSTOMERS).get(customer),
      reads.collection(CONVERSATIONS).get(conversation),
      reads.collection(MESSAGES).get(message),
    ]);
    return [c?.metadata, v?.metadata, m?.attachments, m?.channel_metadata];
  };
  for (const value of atLimits()) t.strictSame(await apply(value), [value, value, [value, value], value], JSON.stringify(value).slice(0, 50));
  await checkProperty(
    seed,
    fc.asyncProperty(goodObject, async (value) => expectSame(await apply(value), [value, value, [value, value], value])),
    40,
  );
};

t.test('sqlite read store', async (t) => {
  const dir = tempDir('fj-rs-');
  const reads = new SqliteReadStore(join(dir, 'read.sqlite'));
  t.teardown(async () => {
    await reads.close();
    removeDir(dir);
  });
  await roundTrips(t, reads);
});

t.test('mongodb read store (FerretDB)', { skip: mongoSkip() }, async (t) => {
  const reads = new MongoReadStore(withDatabase(await mongoServerUrl(), `fj_${randomBytes(4).toString('hex')}`));
  t.teardown(() => reads.close());
  await roundTrips(t, reads);
});
