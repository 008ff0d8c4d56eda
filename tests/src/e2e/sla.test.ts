import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { client } from '../support/client';
import { Receiver, webhookEnv } from '../support/receiver';
import { admin, adminJson, removeDir, startService, tempDir } from '../support/service';
import { tenant, until } from '../support/workspace';

const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
const ticket = (over: Record<string, unknown>) => ({ subject: 'Help', status: 'open', created_at: iso(-10_000), ...over });

t.test('SLA monitor: at risk, breached, once each; a response meets the target; a restart repeats nothing', async (t) => {
  const dir = tempDir();
  const receiver = await Receiver.start();
  const env = webhookEnv(receiver, { SLA_MONITOR_INTERVAL_MS: '150' });
  let svc = await startService(dir, env);
  t.teardown(async () => { await svc.stop(); await receiver.close(); removeDir(dir); });
  const ws = await tenant(svc.baseUrl, dir, { workspaceArgs: ['--sla-tracking', 'on'] });
  const untracked = await tenant(svc.baseUrl, dir);
  await ws.api.post('/webhook_endpoints', { url: receiver.url('/sla'), enabled_events: ['sla.at_risk', 'sla.breached'] });
  const conversation = (await ws.api.post('/conversations')).body;

  const file = join(tempDir('import-'), 'tickets.json');
  writeFileSync(file, JSON.stringify({
    tickets: [
      // 10 s of a 12 s window gone: at risk now, breached in 2 s.
      ticket({ subject: 'slow', sla_first_response_due_at: iso(2000) }),
      // At risk now; an agent reply in its conversation meets the target before it is due.
      ticket({ subject: 'answered', source_conversation_id: conversation.id, sla_first_response_due_at: iso(3000) }),
      // Already past due: breached at once, and no late at-risk.
      ticket({ subject: 'late', sla_resolution_due_at: iso(-1000) }),
      // Resolved: its targets are met.
      ticket({ subject: 'done', status: 'resolved', sla_resolution_due_at: iso(-1000) }),
    ],
  }));
  const report = await adminJson<{ tickets: { ids: string[] } }>(dir, 'import', '--workspace', ws.workspaceId, '--file', file);
  const [slow, answered, late, done] = report.tickets.ids;
  await adminJson(dir, 'import', '--workspace', untracked.workspaceId, '--file', file);

  await until(async () => receiver.on('/sla').filter((h) => h.body.data.id === answered).length === 1, 5000);
  await ws.api.post(`/conversations/${conversation.id}/messages`, { content: 'On it!' });
  await until(async () => (await ws.api.get(`/tickets/${answered}`)).body.first_response_at !== null, 3000);
  await until(async () => receiver.on('/sla').some((h) => h.body.data.id === slow && h.body.type === 'sla.breached'), 6000);
  await new Promise((r) => setTimeout(r, 2000));

  const signals = () => receiver.on('/sla').map((h) => `${h.body.data.id}:${h.body.type}:${h.body.data.sla_metric}`).sort();
  t.strictSame(signals(), [
    `${answered}:sla.at_risk:first_response`,
    `${late}:sla.breached:resolution`,
    `${slow}:sla.at_risk:first_response`,
    `${slow}:sla.breached:first_response`,
  ].sort(), 'each fires once; the answered ticket is not breached; the resolved one and the untracked workspace signal nothing');
  t.notOk(signals().some((s) => s.startsWith(done)));
  const breach = receiver.on('/sla').find((h) => h.body.data.id === slow && h.body.type === 'sla.breached')!;
  t.match(breach.body.data, { object: 'ticket', id: slow, subject: 'slow', sla_metric: 'first_response', sla_due_at: String, sla_status: 'breached' });
  t.match((await ws.api.get(`/tickets/${slow}`)).body, { sla_status: 'breached' });

  // Restart: nothing is sent again; a target that passes while down is breached after.
  const before = receiver.on('/sla').length;
  writeFileSync(file, JSON.stringify({ tickets: [ticket({ subject: 'while down', sla_first_response_due_at: iso(1500) })] }));
  await svc.stop();
  const imported = await adminJson<{ tickets: { ids: string[] } }>(dir, 'import', '--workspace', ws.workspaceId, '--file', file);
  await new Promise((r) => setTimeout(r, 2000));
  svc = await startService(dir, env);
  await until(async () => receiver.on('/sla').some((h) => h.body.data.id === imported.tickets.ids[0]), 6000);
  await new Promise((r) => setTimeout(r, 1500));
  const after = receiver.on('/sla').slice(before).map((h) => `${h.body.data.id}:${h.body.type}`);
  t.strictSame(after, [`${imported.tickets.ids[0]}:sla.breached`], 'only the missed target, breached, once');
  const replay = (await admin(dir, 'events', 'replay', '--workspace', ws.workspaceId)).stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string });
  t.equal(replay.filter((e) => e.type.startsWith('sla.')).length, 5, 'five SLA events in the log');
  t.equal((await client(svc.baseUrl, untracked.key).get('/events')).body.data.length, 0);
});

t.test('ticket webhooks: created, updated and resolved through import', async (t) => {
  const dir = tempDir();
  const receiver = await Receiver.start();
  const svc = await startService(dir, webhookEnv(receiver));
  t.teardown(async () => { await svc.stop(); await receiver.close(); removeDir(dir); });
  const ws = await tenant(svc.baseUrl, dir);
  await ws.api.post('/webhook_endpoints', { url: receiver.url('/tickets'), enabled_events: ['ticket.created', 'ticket.updated', 'ticket.resolved'] });
  const file = join(tempDir('import-'), 'tickets.json');
  writeFileSync(file, JSON.stringify({ tickets: [{ id: 'tkt_01J00000000000000000000001', subject: 'Printer', status: 'open' }] }));
  await adminJson(dir, 'import', '--workspace', ws.workspaceId, '--file', file);
  writeFileSync(file, JSON.stringify({ tickets: [{ id: 'tkt_01J00000000000000000000001', subject: 'Printer', status: 'resolved' }] }));
  await adminJson(dir, 'import', '--workspace', ws.workspaceId, '--file', file);
  const hits = await receiver.waitFor('/tickets', 3);
  t.strictSame(hits.map((h) => h.body.type), ['ticket.created', 'ticket.updated', 'ticket.resolved']);
  t.match(hits[0].body.data, { object: 'ticket', id: 'tkt_01J00000000000000000000001', status: 'open', subject: 'Printer' });
  t.match(hits[2].body.data, { status: 'resolved', resolved_at: String });
});
