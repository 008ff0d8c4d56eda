import t from 'tap';
import { workspacesOf } from '@support/workspaces';
import { importsOf } from '@support/catalog';
import { Application, Clock, loadConfig, silentLogger } from '@support/application';
import { START } from '@support/eventstore';
import { SlaMonitor } from '@support/sla-monitor';
import { removeDir, tempDir } from '../support/service';
import { CATALOG } from '@support/catalog';

t.test('the SLA monitor on an injected clock: at risk, breached, once each, nothing for met targets', async (t) => {
  const dir = tempDir('sla-');
  let now = Date.parse('2026-03-01T12:00:00.000Z');
  const clock: Clock = { now: () => new Date(now) };
  const app = new Application({ catalog: CATALOG, config: loadConfig({ DATA_DIR: dir }), log: silentLogger, clock, projector: true });
  await app.start();
  t.teardown(async () => {
    await app.stop();
    removeDir(dir);
  });
  const admin = { workspaceId: null, actor: 'test', requestId: null };
  const { workspace } = await workspacesOf(app).commands.create(admin, { name: 'SLA', sla_tracking: true });
  const at = (minutes: number) => new Date(now + minutes * 60_000).toISOString();
  await importsOf(app).run(
    { ...admin, workspaceId: workspace.id },
    {
      tickets: [
        { id: 'tkt_01J00000000000000000000001', subject: 'first response due in 60 min', created_at: at(0), sla_first_response_due_at: at(60) },
        { id: 'tkt_01J00000000000000000000002', subject: 'answered', created_at: at(0), first_response_at: at(1), sla_first_response_due_at: at(60) },
        { id: 'tkt_01J00000000000000000000003', subject: 'resolution due in 100 min', created_at: at(0), sla_resolution_due_at: at(100) },
      ],
    },
  );
  await app.settle(null);
  const monitor = new SlaMonitor(app, silentLogger);
  const slaEvents = async () =>
    (await app.engines.events.readAll(START, 10_000))
      .filter((e) => e.type.startsWith('sla.'))
      .map((e) => `${e.stream}:${e.type}:${(e.data as { sla_metric: string }).sla_metric}`);
  const scanAt = async (minutes: number) => {
    now += minutes * 60_000;
    const n = await monitor.scan();
    await app.settle(null);
    return n;
  };

  t.equal(await scanAt(47), 0, 'at 47 minutes nothing is at risk');
  t.equal(await scanAt(1), 1, 'at 48 minutes (80 % of 60) the first ticket is at risk');
  t.equal(await scanAt(0), 0, 'scanning again records nothing');
  t.equal(await scanAt(12), 1, 'at 60 minutes it is breached');
  t.equal(await scanAt(20), 1, 'at 80 minutes the resolution target of the third is at risk');
  t.equal(await scanAt(30), 1, 'at 110 minutes it is breached');
  t.equal(await scanAt(60), 0, 'later scans record nothing more');
  t.strictSame((await slaEvents()).sort(), [
    'ticket-tkt_01J00000000000000000000001:sla.at_risk:first_response',
    'ticket-tkt_01J00000000000000000000001:sla.breached:first_response',
    'ticket-tkt_01J00000000000000000000003:sla.at_risk:resolution',
    'ticket-tkt_01J00000000000000000000003:sla.breached:resolution',
  ]);
  // A fresh monitor (a restart) on the same data repeats nothing.
  t.equal(await new SlaMonitor(app, silentLogger).scan(), 0);
});
