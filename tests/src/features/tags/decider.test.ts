import t from 'tap';
import { tagDecider, TagEvent, tagNameKey } from '@support/tags';
import { spec } from '../../support/decider-spec';

const given = spec(tagDecider);
const created: TagEvent = { type: 'tag.created', data: { id: 'tag_1', workspace_id: 'ws_1', name: 'Billing', color: null, is_active: true } };
const deleted: TagEvent = { type: 'tag.deleted', data: { id: 'tag_1' } };

t.test('a tag is created active with a trimmed name', async (t) =>
  given([]).when({ type: 'create', id: 'tag_1', workspace_id: 'ws_1', name: ' Billing ', color: null }).then(t, [created]),
);
t.test('a blank name is refused', async (t) =>
  given([]).when({ type: 'create', id: 'tag_1', workspace_id: 'ws_1', name: ' ', color: null }).thenFails(t, 'validation'),
);
t.test('update records the changes', async (t) =>
  given([created])
    .when({ type: 'update', changes: { color: '#fff', is_active: false, name: 'Billing' } })
    .then(t, [{ type: 'tag.updated', data: { id: 'tag_1', changes: { color: '#fff', is_active: false } } }]),
);
t.test('color can be cleared', async (t) => {
  const coloured: TagEvent = { type: 'tag.updated', data: { id: 'tag_1', changes: { color: '#fff' } } };
  given([created, coloured])
    .when({ type: 'update', changes: { color: null } })
    .then(t, [{ type: 'tag.updated', data: { id: 'tag_1', changes: { color: null } } }]);
});
t.test('a deleted tag cannot be changed or deleted again', async (t) => {
  given([created, deleted])
    .when({ type: 'update', changes: { name: 'X' } })
    .thenFails(t, 'not_found');
  given([created, deleted]).when({ type: 'delete' }).thenFails(t, 'not_found');
});
t.test('a live tag is deleted', async (t) => given([created]).when({ type: 'delete' }).then(t, [deleted]));
t.test('names compare without case or outer space', async (t) => t.equal(tagNameKey(' BiLLing '), tagNameKey('billing')));
