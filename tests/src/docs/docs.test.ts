import t from 'tap';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { signatureHeader } from '@support/webhooks';
import { readStoreEnv, removeDir, ROOT, startService, tempDir, type Service } from '../support/service';
import { tenant } from '../support/workspace';
import { eventCatalogue, EVENTS_DOC } from './event-catalogue';

/**
 * The docs a newcomer reads stay true: every relative link resolves (file and heading), every
 * `sh` example in the README and the guides runs against the service, the event catalogue is
 * the codecs', and the webhook verifiers of the guide accept what the dispatcher signs.
 */

const walk = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(path.join(dir, e.name)) : e.name.endsWith('.md') ? [path.join(dir, e.name)] : [],
  );
const DOCS = ['README.md', 'CONTRIBUTING.md', 'SECURITY.md', 'CHANGELOG.md', 'infra/README.md']
  .map((f) => path.join(ROOT, f))
  .concat(walk(path.join(ROOT, 'docs')));
const GUIDES = [path.join(ROOT, 'README.md'), ...walk(path.join(ROOT, 'docs/guides'))];
const rel = (file: string) => path.relative(ROOT, file);

/** The file's text outside fenced code blocks (links in code are not links). */
const prose = (text: string) => text.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '');
/** The fenced blocks whose info string is exactly `lang`. */
const blocks = (text: string, lang: string) => [...text.matchAll(/^```([^\n]*)\n([\s\S]*?)^```$/gm)].filter((m) => m[1].trim() === lang).map((m) => m[2]);

/** GitHub's heading anchors: lowercase, punctuation dropped, spaces to hyphens, repeats numbered. */
const anchorsOf = (text: string): Set<string> => {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, heading] of prose(text).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = heading
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
};

t.test('every relative link in the docs resolves, to the file and the heading', async (t) => {
  const broken: string[] = [];
  let checked = 0;
  for (const file of DOCS) {
    const text = readFileSync(file, 'utf8');
    for (const [, target] of prose(text).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z][a-z+.-]*:/i.test(target)) continue;
      checked += 1;
      const [pathPart, anchor] = target.split('#');
      const resolved = pathPart === '' ? file : path.resolve(path.dirname(file), pathPart);
      if (!existsSync(resolved)) broken.push(`${rel(file)}: ${target} (no such file)`);
      else if (anchor && resolved.endsWith('.md') && !anchorsOf(readFileSync(resolved, 'utf8')).has(anchor))
        broken.push(`${rel(file)}: ${target} (no such heading)`);
    }
  }
  t.ok(checked > 40, `${checked} links checked`);
  t.strictSame(broken, []);
});

t.test('the README stays short: what it is, the set-up, the tour, links', async (t) => {
  const lines = readFileSync(path.join(ROOT, 'README.md'), 'utf8').split('\n').length;
  t.ok(lines <= 200, `${lines} lines`);
});

t.test('the event catalogue is the one the codecs give (npm run docs:events writes it)', async (t) => {
  t.strictSame(readFileSync(EVENTS_DOC, 'utf8'), eventCatalogue());
});

const run = (command: string, args: string[], env: NodeJS.ProcessEnv, input?: string) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(command, args, { cwd: ROOT, env, timeout: 180_000, maxBuffer: 16 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
    if (input !== undefined) child.stdin!.end(input);
  });

t.test('the webhook guide verifies what the dispatcher signs, in Node and in Python', async (t) => {
  const guide = readFileSync(path.join(ROOT, 'docs/guides/webhooks.md'), 'utf8');
  const js = blocks(guide, 'js').find((b) => b.includes('function verifyServiceSignature'));
  const py = blocks(guide, 'python').find((b) => b.includes('def verify_service_signature'));
  t.ok(js && py, 'both examples are in the guide');
  const secret = 'whsec_docsTestSecret0123456789';
  const body = '{"id":"evt_1","type":"customer.created","data":{"id":"cus_1"}}';
  const now = Math.floor(Date.now() / 1000);
  const good = signatureHeader(secret, now, body);
  const cases = [
    { header: good, body, want: true },
    { header: good, body: body.replace('cus_1', 'cus_2'), want: false },
    { header: signatureHeader(secret, now - 3600, body), body, want: false },
    // While a secret is rolled: the old one's signature and the new one's, either accepted.
    { header: `${signatureHeader('whsec_old', now, body)},v1=${good.split('v1=')[1]}`, body, want: true },
    { header: 'garbage', body, want: false },
  ];
  const input = JSON.stringify({ secret, cases });
  const nodeOut = await run(
    process.execPath,
    [
      '-e',
      `${js}\nconst { secret, cases } = JSON.parse(require('fs').readFileSync(0, 'utf8'));\nconsole.log(JSON.stringify(cases.map((c) => verifyServiceSignature(Buffer.from(c.body), c.header, secret))));`,
    ],
    process.env,
    input,
  );
  const pyOut = await run(
    'python3',
    [
      '-c',
      `${py}\nimport json, sys\nd = json.load(sys.stdin)\nprint(json.dumps([bool(verify_service_signature(c["body"].encode(), c["header"], d["secret"])) for c in d["cases"]]))`,
    ],
    process.env,
    input,
  );
  const want = cases.map((c) => c.want);
  t.strictSame([nodeOut.stderr, JSON.parse(nodeOut.stdout || 'null')], ['', want], 'Node');
  t.strictSame([pyOut.stderr, JSON.parse(pyOut.stdout || 'null')], ['', want], 'Python');
});

t.test('every sh example of the README and the guides runs against the service', async (t) => {
  const dir = tempDir('docs-');
  // Registration checks a webhook URL after DNS: the examples' endpoint is a local one here.
  const svc: Service = await startService(dir, { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
  t.teardown(async () => {
    await svc.stop();
    removeDir(dir);
  });
  const ws = await tenant(svc.baseUrl, dir, { name: 'Docs', workspaceArgs: ['--plan', 'pro', '--credits', '1000'] });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...(await readStoreEnv(dir)),
    DATA_DIR: dir,
    BASE: svc.baseUrl,
    KEY: ws.key,
    AUTH: `Authorization: Bearer ${ws.key}`,
    HOOK_URL: 'https://127.0.0.1:9/webhooks',
  };
  let ran = 0;
  for (const file of GUIDES) {
    const examples = blocks(readFileSync(file, 'utf8'), 'sh');
    if (examples.length === 0) continue;
    ran += examples.length;
    const result = await run('bash', ['-c', `set -euo pipefail\n${examples.join('\n')}`], env);
    t.equal(result.code, 0, `${rel(file)}: ${examples.length} example(s)${result.code === 0 ? '' : `\n${result.stdout}\n${result.stderr}`}`);
  }
  t.ok(ran >= 10, `${ran} examples ran`);
});
