import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { client, Client } from '../support/client';
import { Receiver, settledDeliveries, webhookEnv } from '../support/receiver';
import { conformsTo } from '../support/openapi';
import { adminJson, removeDir, replayEvents, startService, tempDir } from '../support/service';
import { until } from '../support/wait';
import { tenant } from '../support/workspace';

// Times are far from "now" on purpose: nothing below depends on how fast the machine is. A
// target is moved by importing the ticket again instead of waiting for it to pass, and
// "nothing was signalled" is asserted only after the monitor provably made a whole pass.
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
/** Created 10 h ago: a target due in 1 h has 91 % of its window gone (at risk) and stays unmet for an hour. */
const ticket = (over: Record<string, unknown>) => ({ subject: 'Help', status: 'open', created_at: iso(-10 * HOUR), ...over });

t.test('SLA monitor: at risk, breached, once each; a response meets the target; a restart repeats nothing', async (t) => {
  const dir = tempDir();
  const receiver = await Receiver.start();
  const env = webhookEnv(receiver, { SLA_MONITOR_INTERVAL_MS: '150' });
  let svc = await startService(dir, env);
  t.teardown(async () => {
    await svc.stop();
    await receiver.close();
    removeDir(dir);
  });
  const ws = await tenant(svc.baseUrl, dir, { workspaceArgs: ['--sla-tracking', 'on'] });
  const untracked = await tenant(svc.baseUrl, dir);
  const endpoint = (await ws.api.post('/webhook_endpoints', { url: receiver.url('/sla'), enabled_events: ['sla.at_risk', 'sla.breached'] })).body;
  const conversation = (await ws.api.post('/conversations')).body;
  let api: Client = ws.api;

  let files = 0;
  const importTickets = async (workspaceId: string, tickets: Record<string, unknown>[]) => {
    const file = join(dir, `tickets-${++files}.json`);
    writeFileSync(file, JSON.stringify({ tickets }));
    return (await adminJson<{ tickets: { ids: string[] } }>(dir, 'import', '--workspace', workspaceId, '--file', file)).tickets.ids;
  };
  const slaStatus = async (id: string) => (await api.get(`/tickets/${id}`)).body.sla_status;

  /**
   * Returns once a whole monitor pass has run over everything written before the call. Each
   * marker is a ticket already past due, which the first pass that reads it breaches; each is
   * imported only after the previous one was breached, so a later pass reads it. When the
   * third is breached, the pass that breached the second has ended, and that pass began after
   * the pass that breached the first, which read the first marker, written after everything
   * else. The markers' own signals are left out of the comparisons below.
   */
  const markers = new Set<string>();
  const fullPass = async () => {
    for (let i = 0; i < 3; i++) {
      const [marker] = await importTickets(ws.workspaceId, [ticket({ subject: 'marker', sla_resolution_due_at: iso(-MINUTE) })]);
      markers.add(marker);
      await until(async () => (await slaStatus(marker)) === 'breached', 10_000, 50, `marker ${marker} breached`);
    }
    // Every signal so far is a recorded webhook event once the last marker's is (intake follows
    // the log), and what the receiver got of them is final once no delivery is pending.
    const last = [...markers].pop();
    await until(
      async () => (await api.get('/events?limit=100')).body.data.some((e: { data: { id: string } }) => e.data.id === last),
      10_000,
      50,
      'the last marker recorded as a webhook event',
    );
    await settledDeliveries(api, endpoint.id);
  };
  const signals = (hits = receiver.on('/sla')) =>
    hits
      .filter((h) => !markers.has(h.body.data.id))
      .map((h) => `${h.body.data.id}:${h.body.type}:${h.body.data.sla_metric}`)
      .sort();
  const slaEventsInLog = async (workspaceId: string) =>
    (await replayEvents(dir, '--workspace', workspaceId))
      .filter((e) => e.type.startsWith('sla.') && ![...markers].some((m) => e.stream.endsWith(m)))
      .map((e) => `${e.stream}:${e.type}`)
      .sort();

  const data = [
    // At risk now; breached once its target is moved into the past below.
    ticket({ subject: 'slow', sla_first_response_due_at: iso(HOUR) }),
    // At risk now; an agent reply in its conversation meets the target, so moving it into the past breaches nothing.
    ticket({ subject: 'answered', source_conversation_id: conversation.id, sla_first_response_due_at: iso(HOUR) }),
    // Already past due: breached at once, and no late at-risk.
    ticket({ subject: 'late', sla_resolution_due_at: iso(-MINUTE) }),
    // Resolved: its targets are met.
    ticket({ subject: 'done', status: 'resolved', sla_resolution_due_at: iso(-MINUTE) }),
  ];
  const [slow, answered, late, done] = await importTickets(ws.workspaceId, data);
  const untrackedIds = await importTickets(untracked.workspaceId, data);

  await until(async () => (await slaStatus(slow)) === 'at_risk' && (await slaStatus(answered)) === 'at_risk', 10_000, 50, 'slow and answered at risk');
  await ws.api.post(`/conversations/${conversation.id}/messages`, { content: 'On it!' });
  await until(async () => (await ws.api.get(`/tickets/${answered}`)).body.first_response_at !== null, 10_000, 50, 'the reply recorded as the first response');
  await importTickets(ws.workspaceId, [
    { id: slow, subject: 'slow', sla_first_response_due_at: iso(-MINUTE) },
    { id: answered, subject: 'answered', sla_first_response_due_at: iso(-MINUTE) },
  ]);
  await fullPass();

  t.strictSame(
    signals(),
    [
      `${answered}:sla.at_risk:first_response`,
      `${late}:sla.breached:resolution`,
      `${slow}:sla.at_risk:first_response`,
      `${slow}:sla.breached:first_response`,
    ].sort(),
    'each fires once; the answered ticket is not breached; the resolved one signals nothing',
  );
  const breach = receiver.on('/sla').find((h) => h.body.data.id === slow && h.body.type === 'sla.breached')!;
  t.match(breach.body.data, { object: 'ticket', id: slow, subject: 'slow', sla_metric: 'first_response', sla_due_at: String, sla_status: 'breached' });
  const doc = (await ws.api.get('/openapi.json')).body;
  for (const hit of receiver.on('/sla'))
    t.strictSame(
      conformsTo(doc, doc.webhooks[hit.body.type].post.requestBody.content['application/json'].schema)(hit.body),
      [],
      `${hit.body.type} as the document says`,
    );
  t.strictSame(await Promise.all([slow, answered, late, done].map(slaStatus)), ['breached', 'at_risk', 'breached', null]);
  t.strictSame(await slaEventsInLog(untracked.workspaceId), [], 'a workspace without SLA tracking gets no signal');
  t.equal(untrackedIds.length, 4);

  // Restart: nothing is sent again; a target missed while the service was down is breached after.
  const before = receiver.on('/sla').length;
  await svc.stop();
  const [whileDown] = await importTickets(ws.workspaceId, [ticket({ subject: 'while down', sla_first_response_due_at: iso(-MINUTE) })]);
  svc = await startService(dir, env);
  api = client(svc.baseUrl, ws.key);
  await fullPass();
  t.strictSame(signals(receiver.on('/sla').slice(before)), [`${whileDown}:sla.breached:first_response`], 'only the missed target, breached, once');
  t.strictSame(
    await slaEventsInLog(ws.workspaceId),
    [
      `ticket-${answered}:sla.at_risk`,
      `ticket-${late}:sla.breached`,
      `ticket-${slow}:sla.at_risk`,
      `ticket-${slow}:sla.breached`,
      `ticket-${whileDown}:sla.breached`,
    ].sort(),
    'five SLA events in the log',
  );
});

t.test('ticket webhooks: created, updated and resolved through import', async (t) => {
  const dir = tempDir();
  const receiver = await Receiver.start();
  const svc = await startService(dir, webhookEnv(receiver));
  t.teardown(async () => {
    await svc.stop();
    await receiver.close();
    removeDir(dir);
  });
  const ws = await tenant(svc.baseUrl, dir);
  await ws.api.post('/webhook_endpoints', { url: receiver.url('/tickets'), enabled_events: ['ticket.created', 'ticket.updated', 'ticket.resolved'] });
  const file = join(tempDir('import-'), 'tickets.json');
  writeFileSync(file, JSON.stringify({ tickets: [{ id: 'tkt_01J00000000000000000000001', subject: 'Printer', status: 'open' }] }));
  await adminJson(dir, 'import', '--workspace', ws.workspaceId, '--file', file);
  writeFileSync(file, JSON.stringify({ tickets: [{ id: 'tkt_01J00000000000000000000001', subject: 'Printer', status: 'resolved' }] }));
  await adminJson(dir, 'import', '--workspace', ws.workspaceId, '--file', file);
  const hits = await receiver.waitFor('/tickets', 3);
  // Deliveries go out concurrently: the two of one import may arrive in either order.
  t.strictSame(hits.map((h) => h.body.type).sort(), ['ticket.created', 'ticket.resolved', 'ticket.updated']);
  const of = (type: string) => hits.find((h) => h.body.type === type)!.body.data;
  t.match(of('ticket.created'), { object: 'ticket', id: 'tkt_01J00000000000000000000001', status: 'open', subject: 'Printer' });
  t.match(of('ticket.resolved'), { status: 'resolved', resolved_at: String });
  const doc = (await ws.api.get('/openapi.json')).body;
  for (const hit of hits)
    t.strictSame(
      conformsTo(doc, doc.webhooks[hit.body.type].post.requestBody.content['application/json'].schema)(hit.body),
      [],
      `${hit.body.type} as the document says`,
    );
});
