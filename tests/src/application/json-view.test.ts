import t from 'tap';
import { JsonView } from '@support/application';

type Doc = { id: string; workspace_id: string; name: string; _pos: string };
const text = (id: string, name: string, pos = '1') => JSON.stringify({ id, workspace_id: 'ws_1', name, _pos: pos });

t.test('renders a stored text as its resource JSON, with the id and workspace it belongs to', async (t) => {
  const view = new JsonView<Doc>((d) => ({ object: 'thing', id: d.id, name: d.name }));
  t.strictSame(view.of('th_1', text('th_1', 'One')), { id: 'th_1', workspaceId: 'ws_1', json: '{"object":"thing","id":"th_1","name":"One"}' });
});

t.test('renders each distinct text once; a changed document is rendered again', async (t) => {
  let renders = 0;
  const view = new JsonView<Doc>((d) => {
    renders += 1;
    return { id: d.id, name: d.name };
  });
  const first = view.of('th_1', text('th_1', 'One'));
  t.equal(view.of('th_1', text('th_1', 'One')), first, 'the same text again: the remembered rendering');
  t.equal(renders, 1);
  t.equal(view.of('th_1', text('th_1', 'Renamed', '2')).json, '{"id":"th_1","name":"Renamed"}', 'never stale: a changed text is rendered again');
  t.equal(renders, 2);
});

t.test('memory is bounded: two generations, entries used since the last turnover survive it', async (t) => {
  let renders = 0;
  const view = new JsonView<Doc>((d) => {
    renders += 1;
    return { id: d.id };
  }, 2);
  view.of('a', text('a', 'A'));
  view.of('b', text('b', 'B'));
  view.of('c', text('c', 'C')); // the first generation (a, b) becomes the older one
  view.of('a', text('a', 'A')); // found in the older generation: kept, not rendered again
  t.equal(renders, 3);
  view.of('d', text('d', 'D')); // (c, a) turn over in their turn: b, unused since, is dropped
  view.of('e', text('e', 'E'));
  view.of('b', text('b', 'B'));
  t.equal(renders, 6, 'b was rendered again after two turnovers without use');
});
