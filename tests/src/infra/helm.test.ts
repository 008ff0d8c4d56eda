import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { parseAllDocuments } from 'yaml';
import { loadConfig } from '@support/application';
import { ROOT } from '../support/service';

/**
 * infra/helm/support-platform: `helm lint --strict` and `helm template` (Helm built from the Go
 * module proxy by scripts/helm.sh; CI always has it), then the rendered manifests: every
 * service, its probes and security context, graceful termination, disruption budgets,
 * autoscalers, and an environment that sets every variable the services read and loads.
 */
const HELM = process.env.HELM_BIN ?? join(ROOT, '.engines/helm-v3.22.0/helm');
const CHART = join(ROOT, 'infra/helm/support-platform');
const VALUES = join(ROOT, 'infra/helm/ci-values.yaml');
const skip = !existsSync(HELM) && process.env.CI !== 'true' ? `no helm at ${HELM} (bash scripts/helm.sh build)` : false;
// A `go install` build of Helm assumes Kubernetes 1.20 (below the chart's kubeVersion): render for a supported one.
const KUBE = ['--kube-version', '1.31.0'];
const helm = (...args: string[]) => promisify(execFile)(HELM, args, { maxBuffer: 16 * 1024 * 1024 });

interface Manifest {
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  spec?: any;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}
const SERVICES = ['api', 'projector', 'relay', 'dispatcher', 'sla-monitor'];

/** Every variable the services' configuration reads (packages/application/src/config.ts), and the tracing ones. */
const readVariables = (): string[] => {
  const source = readFileSync(join(ROOT, 'packages/application/src/config.ts'), 'utf8');
  return [...new Set([...source.matchAll(/\benv\.([A-Z_]+)/g)].map((m) => m[1]))].sort();
};

t.test('helm lint --strict: no finding', { skip }, async (t) => {
  const { stdout } = await helm('lint', '--strict', ...KUBE, CHART, '-f', VALUES);
  t.match(stdout, /1 chart\(s\) linted, 0 chart\(s\) failed/);
});

t.test('without the engines, the chart refuses to render, naming what is missing', { skip }, async (t) => {
  const failed = await helm('template', 'support', CHART, ...KUBE).catch((err: { stderr: string }) => err);
  t.match(failed.stderr, /engines\.eventstoreUrl is required/);
});

t.test('the rendered manifests', { skip }, async (t) => {
  const { stdout } = await helm('template', 'support', CHART, ...KUBE, '-f', VALUES);
  const docs = parseAllDocuments(stdout)
    .map((d) => d.toJS() as Manifest | null)
    .filter((d): d is Manifest => d !== null);
  const of = (kind: string) => docs.filter((d) => d.kind === kind);
  const deployments = of('Deployment');
  t.strictSame(
    deployments.map((d) => d.metadata.name).sort(),
    SERVICES.map((s) => `support-platform-${s}`.replace('support-platform', 'support-support-platform')).sort(),
  );

  const config = of('ConfigMap')[0].data!;
  const secret = of('Secret')[0].stringData!;
  t.strictSame(Object.keys(secret).sort(), ['EVENTSTORE_URL', 'LLM_API_KEY', 'MONGODB_URL', 'NATS_URL', 'SMTP_URL'], 'credentials only in the Secret');
  t.notOk(
    Object.keys(config).some((k) => k in secret),
    'and none of them in the ConfigMap',
  );

  for (const d of deployments) {
    const name = d.metadata.name.replace('support-support-platform-', '');
    const pod = d.spec.template.spec;
    const [c] = pod.containers;
    t.strictSame(c.command, ['node', `services/${name}/dist/main.js`], `${name}: its own main`);
    t.ok(existsSync(join(ROOT, `services/${name}/src/main.ts`)), `${name}: a service of this repository`);
    t.strictSame(
      [c.readinessProbe.httpGet, c.livenessProbe.httpGet],
      [
        { path: '/readyz', port: 'http' },
        { path: '/healthz', port: 'http' },
      ],
      `${name}: probes`,
    );
    t.strictSame(c.ports, [{ name: 'http', containerPort: 8080, protocol: 'TCP' }]);
    t.match(pod.securityContext, { runAsNonRoot: true, runAsUser: 1000, seccompProfile: { type: 'RuntimeDefault' } }, `${name}: not root`);
    t.strictSame(c.securityContext, { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } }, `${name}: locked down`);
    t.ok(c.resources.requests.cpu && c.resources.requests.memory && c.resources.limits.memory, `${name}: resources`);
    t.ok(pod.terminationGracePeriodSeconds > Number(c.lifecycle.preStop.exec.command[1]) + 30, `${name}: time to finish its work after the preStop pause`);
    t.strictSame(
      c.volumeMounts.map((v: { mountPath: string }) => v.mountPath),
      ['/data', '/tmp'],
      `${name}: writable places on a read-only root`,
    );

    // The environment a pod gets: the ConfigMap, the Secret, then its own variables.
    const own = Object.fromEntries(c.env.map((e: { name: string; value?: string }) => [e.name, e.value ?? `${e.name.toLowerCase()}-from-field`]));
    const env: Record<string, string> = { ...config, ...secret, ...own };
    t.strictSame(
      readVariables().filter((v) => !(v in env)),
      [],
      `${name}: every variable the services read is set`,
    );
    t.ok('OTEL_EXPORTER_OTLP_ENDPOINT' in env && env.OTEL_SERVICE_NAME === `support-${name}`, `${name}: its traces' service name`);
    const loaded = loadConfig(env);
    t.strictSame(
      [loaded.eventstoreUrl, loaded.mongodbUrl, loaded.natsUrl, loaded.port, loaded.dataDir, loaded.trustProxy],
      [secret.EVENTSTORE_URL, secret.MONGODB_URL, secret.NATS_URL, 8080, '/data', true],
      `${name}: the configuration loads, on the external engines`,
    );
  }

  t.strictSame(of('PodDisruptionBudget').length, SERVICES.length, 'a disruption budget per service');
  const hpas = Object.fromEntries(of('HorizontalPodAutoscaler').map((h) => [h.metadata.name.replace('support-support-platform-', ''), h.spec.metrics[0]]));
  t.strictSame(Object.keys(hpas).sort(), ['api', 'dispatcher', 'projector']);
  t.strictSame(hpas.api.resource.name, 'cpu');
  // Every dispatcher reports the whole backlog: an External metric for the deployment, not a per-pod one.
  t.strictSame(
    [hpas.projector.type, hpas.dispatcher.type, hpas.dispatcher.external.metric.selector],
    ['Pods', 'External', { matchLabels: { service: 'support-support-platform-dispatcher' } }],
  );
  // The autoscalers' metrics are series the services export, and the adapter's values serve each in its kind.
  const exported = readFileSync(join(ROOT, 'docs/operating/observability.md'), 'utf8');
  const adapter = parseAllDocuments(readFileSync(join(ROOT, 'infra/prometheus/adapter-values.yaml'), 'utf8'))[0].toJS() as {
    rules: { default: boolean; custom: { seriesQuery: string; name: { as: string } }[]; external: { seriesQuery: string; name: { as: string } }[] };
  };
  const served = (rules: { seriesQuery: string; name: { as: string } }[]) => rules.map((r) => [r.name.as, r.seriesQuery.split('{')[0]]);
  t.strictSame(
    [served(adapter.rules.custom), served(adapter.rules.external)],
    [[[hpas.projector.pods.metric.name, hpas.projector.pods.metric.name]], [[hpas.dispatcher.external.metric.name, hpas.dispatcher.external.metric.name]]],
    "prometheus-adapter serves the projectors' metric per pod and the dispatchers' for the deployment",
  );
  for (const metric of [hpas.projector.pods.metric.name, hpas.dispatcher.external.metric.name])
    t.ok(exported.includes(`\`${metric}\``), `${metric} is exported`);
  const ingress = of('Ingress')[0];
  t.strictSame(
    ingress.spec.rules[0].http.paths.map((p: { path: string }) => p.path),
    ['/v1'],
    'only the API is published; probes and metrics stay inside',
  );
  t.equal(of('ServiceMonitor')[0].spec.endpoints[0].path, '/metrics');
});
