import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { parse } from 'yaml';
import { ROOT } from '../support/service';

// No container engine runs here: infra/compose.yaml is checked against the Compose
// Specification's JSON schema and linted by dclint (the schema ships in the npm package, no
// network), and the topology the operator guide promises is asserted on the parsed file.
const COMPOSE = join(ROOT, 'infra/compose.yaml');

t.test('the compose file is valid Compose and passes the linter', async (t) => {
  const bin = join(ROOT, 'node_modules/dclint/bin/dclint.cjs');
  const run = await promisify(execFile)(process.execPath, [bin, '-c', join(ROOT, 'infra/.dclintrc.json'), '-f', 'json', COMPOSE]).catch(
    (err: { stdout: string }) => err,
  );
  const [report] = JSON.parse(run.stdout) as { messages: { rule: string; message: string }[] }[];
  t.strictSame(
    report.messages.map((m) => `${m.rule}: ${m.message}`),
    [],
  );
});

interface Service {
  image?: string;
  command?: string[];
  ports?: string[];
  volumes?: string[];
  healthcheck?: { test: string[] };
  deploy?: { replicas?: number; resources?: { limits?: { memory?: string } } };
  logging?: { driver: string; options: Record<string, string> };
  env_file?: unknown;
  restart?: string;
  depends_on?: Record<string, { condition: string }>;
  environment?: Record<string, string>;
}

t.test('the topology: engines with volumes, every service health-checked on /readyz, replicas, one published port', async (t) => {
  const doc = parse(readFileSync(COMPOSE, 'utf8'), { merge: true }) as { services: Record<string, Service>; volumes: Record<string, unknown> };
  const s = doc.services;
  const ours = ['api', 'projector', 'relay', 'dispatcher', 'sla-monitor'];
  t.strictSame(Object.keys(s).sort(), ['api', 'dispatcher', 'eventstore', 'lb', 'mongo', 'nats', 'projector', 'relay', 'sla-monitor']);
  for (const name of ours) {
    t.strictSame(s[name].command, ['node', `services/${name}/dist/main.js`], `${name}: its own main`);
    t.match(s[name].healthcheck?.test.join(' '), /\/readyz/, `${name}: healthy when /readyz answers`);
    t.strictSame(s[name].depends_on, {
      eventstore: { condition: 'service_healthy' },
      mongo: { condition: 'service_healthy' },
      nats: { condition: 'service_healthy' },
    });
    t.match(
      s[name].environment,
      {
        EVENTSTORE_URL: /^esdb:\/\/eventstore:2113/,
        MONGODB_URL: /^mongodb:\/\/support:\$\{MONGO_PASSWORD:\?[^}]+\}@mongo:27017\//,
        NATS_URL: /^nats:\/\/support:\$\{NATS_PASSWORD:\?[^}]+\}@nats:4222$/,
      },
      `${name}: the engines, with credentials that must be set`,
    );
    t.strictSame(s[name].env_file, [{ path: './secrets.env', required: false }], `${name}: LLM_API_KEY and SMTP_URL from a file, not this one`);
    t.equal(s[name].restart, 'unless-stopped');
  }
  t.strictSame(Object.fromEntries(ours.map((n) => [n, s[n].deploy?.replicas])), { api: 2, projector: 1, relay: 1, dispatcher: 2, 'sla-monitor': 1 });
  for (const engine of ['eventstore', 'mongo', 'nats']) {
    t.ok(s[engine].healthcheck, `${engine}: health-checked`);
    const named = (s[engine].volumes ?? []).map((v) => v.split(':')[0]).filter((v) => v in doc.volumes);
    t.ok(named.length > 0, `${engine}: its data on a named volume`);
  }
  t.match(s.nats.command?.join(' '), /--jetstream/, 'NATS with JetStream');
  t.strictSame(
    Object.entries(s)
      .filter(([, v]) => v.ports)
      .map(([k, v]) => [k, v.ports]),
    [['lb', ['0.0.0.0:80:80', '0.0.0.0:443:443']]],
    'only the load balancer publishes host ports: HTTPS, and HTTP for the certificate challenge and redirects',
  );
  for (const [name, service] of Object.entries(s)) {
    t.match(service.logging, { driver: 'json-file', options: { 'max-size': '10m', 'max-file': '5' } }, `${name}: logs rotated`);
    t.ok(service.deploy?.resources?.limits?.memory, `${name}: a memory limit`);
  }
  t.match(s.mongo.environment, { MONGO_INITDB_ROOT_USERNAME: 'support', MONGO_INITDB_ROOT_PASSWORD: /MONGO_PASSWORD/ }, 'MongoDB with a user');
  t.match(s.nats.command?.join(' '), /--user support --pass \$\{NATS_PASSWORD/, 'NATS with credentials');
  const caddy = readFileSync(join(ROOT, 'infra/Caddyfile'), 'utf8');
  t.match(caddy, /dynamic a \{\s*name api\s*port 8080/, 'the balancer spreads over the api replicas');
  t.match(caddy, /health_uri \/readyz/, 'and sends nothing to one whose /readyz fails (active health checks)');
  t.match(caddy, /^\{\$SITE_ADDRESS\} \{/m, 'on TLS, for the configured site address');
  t.match(caddy, /handle \/v1\*/, 'publishing only the API');
  for (const example of ['.env.example', 'secrets.env.example']) t.ok(readFileSync(join(ROOT, 'infra', example), 'utf8').length > 0, example);
  const ignored = readFileSync(join(ROOT, '.gitignore'), 'utf8');
  t.match(ignored, /^\/infra\/\.env$/m, 'infra/.env is never committed');
  t.match(ignored, /^\/infra\/secrets\.env$/m, 'nor infra/secrets.env');
});
