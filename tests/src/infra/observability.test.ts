import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { parse } from 'yaml';
import { serviceFixture } from '../support/fixture';
import { Scrape, scrape } from '../support/prometheus';
import { ROOT } from '../support/service';

/**
 * infra/prometheus/alerts.yaml and infra/grafana/support-platform.json: what an operator loads.
 * promtool (built by scripts/promtool.sh; CI always has it) checks the rules as Prometheus
 * would; every metric the rules and panels query must be one the service exports, so a renamed
 * series turns this red rather than an alert that never fires.
 */
const ALERTS = join(ROOT, 'infra/prometheus/alerts.yaml');
const DASHBOARD = join(ROOT, 'infra/grafana/support-platform.json');
const PROMTOOL = process.env.PROMTOOL_BIN ?? join(ROOT, '.engines/promtool-v0.316.0/promtool');

interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels: { severity: string };
  annotations: { summary: string; description: string };
}
const rules = (parse(readFileSync(ALERTS, 'utf8')) as { groups: { name: string; rules: Rule[] }[] }).groups.flatMap((g) => g.rules);
const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { uid: string; panels: { title: string; targets: { expr: string }[] }[] };

/** The metric names an expression queries (histogram and summary samples by their family's name). */
const metricsIn = (expr: string): string[] =>
  [...new Set([...expr.matchAll(/\b((?:support|http_server)_[a-z0-9_]+)/g)].map((m) => m[1].replace(/_(bucket|count|sum)$/, '')))].sort();

t.test(
  'promtool checks the alert rules',
  { skip: !existsSync(PROMTOOL) && process.env.CI !== 'true' ? `no promtool at ${PROMTOOL} (bash scripts/promtool.sh build)` : false },
  async (t) => {
    const { stdout } = await promisify(execFile)(PROMTOOL, ['check', 'rules', ALERTS]);
    t.match(stdout, new RegExp(`SUCCESS: ${rules.length} rules found`));
    // Their behaviour on series: no lease alert on the embedded default, one when a scale-out's relays are gone.
    const tested = await promisify(execFile)(PROMTOOL, ['test', 'rules', join(ROOT, 'infra/prometheus/alerts.test.yaml')]);
    t.match(tested.stdout, /SUCCESS/);
  },
);

t.test('the alerts an operator needs, each with a severity, a summary and what to do', async (t) => {
  t.strictSame(
    rules.map((r) => r.alert),
    [
      'SupportProjectorLagging',
      'SupportDeliveryConsumerLagging',
      'SupportConsumerFailing',
      'SupportEventsSetAside',
      'SupportNoActiveRelay',
      'SupportNoActiveSlaMonitor',
      'SupportWebhookFailureRate',
      'SupportWebhookEndpointDisabled',
      'SupportWebhookBacklog',
      'SupportApiServerErrors',
    ],
  );
  for (const r of rules) {
    t.match(r.labels.severity, /^(critical|warning|info)$/, r.alert);
    t.ok(r.annotations.summary && r.annotations.description, `${r.alert}: summary and description`);
  }
});

const e2e = serviceFixture({ tenant: false });

t.test('every metric the rules and the dashboard query is one the service exports', async (t) => {
  const exported = new Set([...new Scrape((await scrape(new URL(e2e.svc.baseUrl).origin)).text).text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]));
  for (const r of rules) {
    const names = metricsIn(r.expr);
    t.ok(names.length > 0, `${r.alert} queries a metric`);
    t.strictSame(
      names.filter((n) => !exported.has(n)),
      [],
      r.alert,
    );
  }
  t.equal(dashboard.uid, 'support-platform');
  // Every dispatcher reports the same backlog (the shared deliveries): a sum would count it once per dispatcher.
  const backlog = dashboard.panels.flatMap((p) => p.targets.map((x) => x.expr)).filter((e) => /support_webhook_deliveries_(pending|due)/.test(e));
  t.ok(backlog.length > 0 && backlog.every((e) => /^max\(/.test(e)), `the backlog panels take the max: ${backlog.join(', ')}`);
  for (const p of dashboard.panels)
    for (const target of p.targets)
      t.strictSame(
        metricsIn(target.expr).filter((n) => !exported.has(n)),
        [],
        p.title,
      );
});
