import t from 'tap';
import { cannedResponseDecider } from '@support/canned-responses';
import { channelDecider } from '@support/channels';
import { Decider, ImportCommand } from '@support/domain';
import { articleDecider } from '@support/knowledge-base';
import { spec } from '../support/decider-spec';

/** The rules every record that arrives by import shares (importedRecordDecider), checked on each kind. */
const AT = '2026-03-01T10:00:00.000Z';
const kinds: { name: string; decider: Decider<ImportCommand<never>, { type: string }, unknown>; input: Record<string, unknown>; kind: string }[] = [
  { name: 'article', decider: articleDecider as never, input: { title: 'Refunds', content: 'We refund within 30 days.' }, kind: 'knowledge_base_article' },
  { name: 'canned response', decider: cannedResponseDecider as never, input: { name: 'Greeting', content: 'Hello!' }, kind: 'canned_response' },
  { name: 'channel', decider: channelDecider as never, input: { type: 'email', name: 'Support inbox' }, kind: 'channel' },
];
const importing = (input: Record<string, unknown>, workspace_id = 'ws_1') =>
  ({ type: 'import', id: 'rec_1', workspace_id, at: AT, input }) as ImportCommand<never>;

for (const { name, decider, input, kind } of kinds) {
  const given = spec(decider);
  const first = decider.decide(importing(input), decider.initialState);
  const created = first._tag === 'Right' ? first.right : [];

  t.test(`${name}: a first import creates it, as ${kind}.created`, async (t) => {
    t.strictSame(
      created.map((e) => e.type),
      [`${kind}.created`],
    );
  });

  t.test(`${name}: another workspace's record is refused, and nothing is recorded`, async (t) => {
    given(created)
      .when(importing(input, 'ws_2'))
      .thenFails(t, 'conflict', /belongs to another workspace/);
  });

  t.test(`${name}: the same import again records nothing; a changed field is recorded alone`, async (t) => {
    given(created).when(importing(input)).then(t, []);
    const changedKey = Object.keys(input)[1];
    given(created)
      .when(importing({ ...input, [changedKey]: 'Changed' }))
      .then(t, [{ type: `${kind}.updated`, data: { id: 'rec_1', changes: { [changedKey]: 'Changed' } } }] as never);
  });
}

t.test("channel: an import's conversation_count is never taken (the service keeps its own count)", async (t) => {
  const given = spec(channelDecider);
  const created = channelDecider.decide(importing({ type: 'email', name: 'Inbox', conversation_count: 7 }), channelDecider.initialState);
  t.equal(created._tag, 'Right');
  const events = created._tag === 'Right' ? created.right : [];
  t.notOk('conversation_count' in (events[0]?.data ?? {}));
  given(events)
    .when(importing({ type: 'email', name: 'Inbox', conversation_count: 9 }))
    .then(t, []);
});
