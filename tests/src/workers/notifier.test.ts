import t from 'tap';
import { workspacesOf } from '@support/workspaces';
import { Application, EngineUnavailable, jsonLogger, loadConfig } from '@support/application';
import { webhookEndpointsOf } from '@support/webhook-endpoints';
import { Notifier } from '@support/relay';
import type { Mail, Mailer } from '@support/webhooks';
import { removeDir, tempDir } from '../support/service';
import { until } from '../support/wait';
import { CATALOG } from '@support/catalog';

// The notifier mails endpoint notices. A mail server that is down is waited for, however long;
// a notice the server refuses every time is skipped (logged with its log position), and later
// notices go out.

t.test('a notice refused the same way every time is skipped and logged; the next notices are sent', async (t) => {
  const dir = tempDir('notifier-');
  const lines: string[] = [];
  const app = new Application({
    catalog: CATALOG,
    config: loadConfig({ DATA_DIR: dir, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }),
    log: jsonLogger('info', {}, (l) => lines.push(l)),
    projector: true,
  });
  await app.start();
  const sent: Mail[] = [];
  let refusals = 0;
  // Longer than the skip limit: the mailer tells a server that is down (EngineUnavailable) from a refusal.
  let outage = 6;
  const mailer: Mailer = {
    async send(mail) {
      if (outage > 0) {
        outage--;
        throw new EngineUnavailable('mail server', new Error('connect ECONNREFUSED'));
      }
      if (mail.to === 'bounce@example.com') {
        refusals++;
        throw new Error('550 mailbox unavailable');
      }
      sent.push(mail);
    },
  };
  const notifier = new Notifier(app, mailer, app.log, { backoff: { baseMs: 1, maxMs: 5 }, skipPoisonAfter: 3 });
  t.teardown(async () => {
    await notifier.stop();
    await app.stop();
    removeDir(dir);
  });
  const admin = { workspaceId: null, actor: 'test', requestId: null };
  const endpointOf = async (email: string) => {
    const { workspace } = await workspacesOf(app).commands.create(admin, { name: email, email });
    const ep = await webhookEndpointsOf(app).create(
      { workspaceId: workspace.id, actor: 'test', requestId: null },
      { url: 'https://127.0.0.1:9/hook', enabled_events: ['*'] },
    );
    await app.settle(ep.position);
    return { id: ep.id, workspace_id: workspace.id };
  };
  const bouncing = await endpointOf('bounce@example.com');
  const fine = await endpointOf('ops@example.com');
  // 410 Gone disables at once: one notice each, the bouncing one first in the log.
  await webhookEndpointsOf(app).recordAttempt(bouncing, { delivery_id: 'whd_1', ok: false, gone: true, error: 'HTTP 410' });
  await webhookEndpointsOf(app).recordAttempt(fine, { delivery_id: 'whd_2', ok: false, gone: true, error: 'HTTP 410' });
  await notifier.start();
  await until(async () => sent.length === 1, 10_000);
  t.strictSame(
    sent.map((m) => [m.to, m.subject]),
    [['ops@example.com', `Webhook endpoint ${fine.id} was disabled`]],
  );
  t.strictSame([outage, refusals], [0, 3], 'the outage was waited out; the refusal was tried three times');
  const skipped = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'poison event skipped after failing the same way repeatedly');
  t.match(skipped, [
    { consumer: 'notifier', type: 'webhook_endpoint.disabled', stream: `webhook_endpoint-${bouncing.id}`, position: /^\d+/, error: '550 mailbox unavailable' },
  ]);
  t.strictSame(skipped.length, 1);
  t.match(notifier.health(), { status: 'running', skipped: 1 });
});
