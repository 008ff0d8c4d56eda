import t from 'tap';
import { ALL_IMPORTS, ALL_PROJECTIONS, EVENT_TYPES } from '@support/catalog';

/** What @support/catalog puts together from the features and the packages not yet split into them. */

t.test('every event a read model follows is an event the platform records (and asks EventStoreDB for)', async (t) => {
  const unknown = ALL_PROJECTIONS.flatMap((p) => p.handles.filter((type) => !EVENT_TYPES.includes(type)).map((type) => `${p.collection.name}: ${type}`));
  t.strictSame(unknown, []);
  t.strictSame(
    ['tag.created', 'canned_response.updated', 'channel.created'].filter((type) => !EVENT_TYPES.includes(type)),
    [],
    "the feature folders' events are among them",
  );
});

t.test('read models and import kinds keep the order operators know', async (t) => {
  t.strictSame(
    ALL_PROJECTIONS.map((p) => p.collection.name),
    [
      'workspaces',
      'api_keys',
      'customers',
      'tags',
      'tickets',
      'knowledge_base_articles',
      'canned_responses',
      'channels',
      'conversations',
      'messages',
      'webhook_endpoints',
      'agents',
    ],
  );
  t.strictSame(
    ALL_IMPORTS.map((k) => k.key),
    ['tickets', 'knowledge_base_articles', 'canned_responses', 'channels'],
  );
});
