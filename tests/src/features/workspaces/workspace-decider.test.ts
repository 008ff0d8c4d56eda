import t from 'tap';
import { slugify, workspaceDecider, WorkspaceEvent } from '@support/workspaces';
import { spec } from '../../support/decider-spec';

const given = spec(workspaceDecider);
const created: WorkspaceEvent = {
  type: 'workspace.created',
  data: { id: 'ws_1', name: 'Acme', slug: 'acme', plan: 'pro', credits: 1000, sla_tracking: false },
};
const create = { type: 'create' as const, id: 'ws_1', name: 'Acme', slug: 'acme', plan: 'pro', credits: 1000, sla_tracking: false };

t.test('a new workspace is created', async (t) => given([]).when(create).then(t, [created]));
t.test('a workspace is created once', async (t) => given([created]).when(create).thenFails(t, 'conflict'));
t.test('the plan must be known', async (t) =>
  given([])
    .when({ ...create, plan: 'gold' })
    .thenFails(t, 'validation', /plan/),
);
t.test('credits are a whole number ≥ 0', async (t) => {
  given([])
    .when({ ...create, credits: -1 })
    .thenFails(t, 'validation', /credits/);
  given([])
    .when({ ...create, credits: 1.5 })
    .thenFails(t, 'validation', /credits/);
});
t.test('the slug is lowercase words and dashes', async (t) =>
  given([])
    .when({ ...create, slug: 'Acme Inc' })
    .thenFails(t, 'validation', /slug/),
);
t.test('the name must not be blank', async (t) =>
  given([])
    .when({ ...create, name: '  ' })
    .thenFails(t, 'validation', /name/),
);
t.test('set changes only what differs', async (t) =>
  given([created])
    .when({ type: 'update', changes: { plan: 'pro', credits: 5, sla_tracking: true } })
    .then(t, [{ type: 'workspace.updated', data: { credits: 5, sla_tracking: true } }]),
);
t.test('set with nothing new records nothing', async (t) =>
  given([created])
    .when({ type: 'update', changes: { plan: 'pro' } })
    .then(t, []),
);
t.test('set on an unknown workspace fails', async (t) =>
  given([])
    .when({ type: 'update', changes: { plan: 'none' } })
    .thenFails(t, 'not_found'),
);
t.test('slugify', async (t) => {
  t.equal(slugify('Acme Inc.'), 'acme-inc');
  t.equal(slugify('  Ünïcode  Café '), 'unicode-cafe');
  t.equal(slugify('!!!'), 'workspace');
});
