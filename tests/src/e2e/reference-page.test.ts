import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import t from 'tap';
import { serviceFixture } from '../support/fixture';
import { ROOT } from '../support/service';

/**
 * GET /v1/docs renders the API reference from the live document in a real browser (Debian's
 * chromium, driven by playwright-core), offline: no request leaves the machine, no console
 * error, and POST /customers shows with its example and its errors. The screenshot is kept in
 * tests/artifacts/ for CI.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const e2e = serviceFixture({ tenant: false });

t.test('the page and the bundle are served without a key, from this service', async (t) => {
  const page = await fetch(`${e2e.svc.baseUrl}/docs`);
  t.equal(page.status, 200);
  t.match(page.headers.get('content-type'), /^text\/html/);
  const html = await page.text();
  t.notMatch(html, /https?:\/\//, 'no absolute URL: nothing is loaded from elsewhere');
  const bundle = await fetch(`${e2e.svc.baseUrl}/docs/scalar.js`);
  t.equal(bundle.status, 200);
  t.match(bundle.headers.get('content-type'), /javascript/);
  t.ok((await bundle.arrayBuffer()).byteLength > 100_000, 'the standalone bundle');
  // With a trailing slash the page's relative URLs would miss: it is sent to /v1/docs.
  const slash = await fetch(`${e2e.svc.baseUrl}/docs/`, { redirect: 'manual' });
  t.strictSame([slash.status, slash.headers.get('location')], [301, '../docs']);
  t.equal((await fetch(`${e2e.svc.baseUrl}/docs/`)).url, `${e2e.svc.baseUrl}/docs`, 'which a browser follows to the page');
});

t.test(
  'in headless Chromium: POST /customers with an example and an error, no console error, nothing fetched from outside',
  { skip: !existsSync(CHROMIUM) && process.env.CI !== 'true' ? `no browser at ${CHROMIUM}` : false },
  async (t) => {
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    t.teardown(() => browser.close());
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const problems: string[] = [];
    const outside: string[] = [];
    const origin = new URL(e2e.svc.baseUrl).origin;
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(String(e)));
    page.on('request', (r) => {
      if (!r.url().startsWith(origin) && !r.url().startsWith('data:') && !r.url().startsWith('blob:')) outside.push(r.url());
    });
    // Opened where a real error's documentation_url points: POST /customers's 400.
    const refused = await fetch(`${e2e.svc.baseUrl}/customers`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{' });
    const link = ((await refused.json()) as { error: { documentation_url: string } }).error.documentation_url;
    t.equal(link, `${e2e.svc.baseUrl}/docs#tag/customers/POST/customers.responses.400`, 'a body that does not parse: the 400 of the operation');
    await page.goto(link);
    // The operation, its request example (a curl call with a body), its answer's example and its errors.
    const shown = (text: string | RegExp) => page.getByText(text).first().waitFor({ timeout: 30_000 });
    await shown('Create a customer, or return the existing one with the same email, phone or external_id');
    await shown('--request POST');
    await shown(/"object": "customer"/);
    // The document's examples, not placeholders: the customer's id and the request's email.
    await shown(/"id": "cus_01JDQ5ASHBTBPZ44902DN3Z5SS"/);
    await shown(/ada\.moreau@example\.com/);
    await shown('Invalid body or parameters');
    t.pass('POST /customers is shown with a request example, a response example and its 400');
    // The link's section is the one scrolled to (Scalar's element ids carry the document's slug).
    // (An expression run in the page: the tests are compiled without the DOM's types.)
    const inView = (hash: string) =>
      page.waitForFunction(
        `(() => {
          const el = [...document.querySelectorAll('[id]')].find((e) => e.id.endsWith(${JSON.stringify(`/${decodeURIComponent(hash)}`)}));
          const top = el ? el.getBoundingClientRect().top : undefined;
          return top !== undefined && top >= 0 && top < window.innerHeight / 2;
        })()`,
        undefined,
        { timeout: 30_000 },
      );
    await inView(new URL(link).hash.slice(1));
    t.pass("the link scrolls to the operation's 400");
    await page.goto(`${e2e.svc.baseUrl}/docs#description/errors`);
    await inView('description/errors');
    await shown('write_committed');
    t.pass('the errors section, where errors outside any operation link to');
    const artifacts = join(ROOT, 'tests', 'artifacts');
    mkdirSync(artifacts, { recursive: true });
    await page.screenshot({ path: join(artifacts, 'reference-page.png'), fullPage: false });
    t.strictSame(problems, [], 'no console error');
    t.strictSame(outside, [], 'no request leaves the service');
  },
);
