import t from 'tap';
import { partitionProjections } from '@support/projections';
import { ALL_PROJECTIONS } from '@support/catalog';

const names = (groups: { collection: { name: string } }[][]) => groups.map((g) => g.map((p) => p.collection.name));
const pick = (...wanted: string[]) => ALL_PROJECTIONS.filter((p) => wanted.includes(p.collection.name));

t.test('heaviest first, each to the lightest group, by the events of the types each handles', async (t) => {
  // customers handle customer.*, conversation.* and message.created; conversations the last
  // two; messages only message.created; tags only tag.*.
  const counts = { 'message.created': 500, 'customer.created': 100, 'customer.updated': 280, 'conversation.created': 20, 'tag.created': 5 };
  const projections = pick('customers', 'tags', 'conversations', 'messages');
  t.strictSame(names(partitionProjections(projections, 2, counts)), [
    ['customers', 'tags'],
    ['conversations', 'messages'],
  ]);
  t.strictSame(names(partitionProjections(projections, 3, counts)), [['customers'], ['conversations'], ['tags', 'messages']]);
});

t.test('without counts, one each in turn; never more groups than projections, none empty', async (t) => {
  const projections = pick('customers', 'tags', 'conversations');
  t.strictSame(names(partitionProjections(projections, 2, null)), [['customers', 'conversations'], ['tags']]);
  t.strictSame(names(partitionProjections(projections, 8, null)), [['customers'], ['tags'], ['conversations']]);
  t.strictSame(names(partitionProjections(projections, 1, null)), [['customers', 'tags', 'conversations']]);
  t.strictSame(names(partitionProjections(projections, 0, null)), [['customers', 'tags', 'conversations']], 'at least one group');
});
