import { join } from 'node:path';
import { workspacesOf } from '@support/workspaces';
import { LogConsumer, type Application, type Logger, type LogConsumerOptions } from '@support/application';
import type { RecordedEvent } from '@support/eventstore';
import { endpointsOf } from '@support/webhook-endpoints';
import { createMailer, type Mailer } from '@support/webhooks';

/**
 * A mail server that is down (unreached, or answering 4xx) is waited for however long, retried
 * 1 s doubling to 1 min; a notice the server refuses 8 times in a row (about 2 minutes: a refused
 * address, a rejected message) is skipped and logged with its position, so later notices still go out.
 */
export const NOTIFIER_RETRY: LogConsumerOptions = { backoff: { baseMs: 1000, maxMs: 60_000 }, skipPoisonAfter: 8 };

/**
 * Mails workspace notices that endpoint events call for: the warning at 10 consecutive
 * failures and the disabling at 15 (or on a 410). It reads the log from its own checkpoint,
 * so a notice whose mail failed or was cut off by a crash is sent after the restart.
 */
export class Notifier extends LogConsumer {
  constructor(
    private readonly app: Application,
    private readonly mailer: Mailer,
    private readonly mailLog: Logger,
    options: LogConsumerOptions = NOTIFIER_RETRY,
  ) {
    super(app.engines.events, app.engines.reads, 'notifier', (event) => this.notify(event), mailLog, options);
  }

  private async notify(event: RecordedEvent): Promise<void> {
    if (event.type !== 'webhook_endpoint.failure_warning' && event.type !== 'webhook_endpoint.disabled') return;
    const data = event.data as { id: string; last_error: string; consecutive_failures?: number; reason?: string };
    const endpoint = await endpointsOf(this.app).all.get(data.id);
    const workspace = endpoint && (await workspacesOf(this.app).reads.get(endpoint.workspace_id));
    if (!endpoint || !workspace) return;
    const to = workspace.email ?? `owner@${workspace.slug}.invalid`;
    if (!workspace.email) this.mailLog.warn('workspace has no e-mail address; set one with `admin workspace set --email`', { workspace_id: workspace.id });
    const disabled = event.type === 'webhook_endpoint.disabled';
    const why = data.reason === 'gone' ? 'the receiver answered 410 Gone' : `${disabled ? 15 : data.consecutive_failures} deliveries in a row failed`;
    const mail = {
      to,
      subject: disabled ? `Webhook endpoint ${endpoint.id} was disabled` : `Webhook endpoint ${endpoint.id} is failing`,
      text: [
        disabled ? `We disabled your webhook endpoint because ${why}.` : `Your webhook endpoint is failing: ${why}. At 15 it will be disabled.`,
        '',
        `Endpoint: ${endpoint.id}`,
        `URL: ${endpoint.url}`,
        `Last error: ${data.last_error}`,
        `Time: ${event.metadata.occurred_at}`,
        '',
        disabled
          ? 'Fix the receiver, then re-enable it with PATCH /v1/webhook_endpoints/{id} and status "enabled".'
          : 'Check that the receiver answers 2xx within 10 seconds.',
      ].join('\n'),
    };
    await this.mailer.send(mail);
    this.mailLog.info('workspace notified', { workspace_id: workspace.id, endpoint_id: endpoint.id, subject: mail.subject });
  }
}

/** The notifier on the configured mail server (SMTP_URL), or the outbox folder without one. */
export const configuredNotifier = (app: Application, log: Logger): Notifier =>
  new Notifier(app, createMailer({ smtpUrl: app.config.smtpUrl, outboxDir: join(app.config.dataDir, 'outbox') }), log);
