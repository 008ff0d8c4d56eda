import Router from '@koa/router';
import { workspacesOf } from '@support/workspaces';
import Koa from 'koa';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Application, loadConfig, silentLogger } from '@support/application';
import { apiOf, dispatchRoutes, type Api } from '@support/http';
import { customerJson, customersOf } from '@support/customers';
import { apiLayers, createHttpApp, ROUTES } from '@support/api';
import { median } from './load';
import { CATALOG } from '@support/catalog';

/**
 * `npm run --silent bench:layers -- [seconds] [rounds]`: what each layer of the API adds to a
 * `GET /customers/{id}`, in CPU µs per request of the serving process. The application runs in
 * this process (embedded engines, one customer) and serves stacks of increasing depth: the
 * bench's baseline (a constant object, no read), a bare Koa handler reading the document as
 * the route does, then the API's layers one by one in
 * front of it (`apiLayers`, what createHttpApp uses), then @koa/router holding every route of
 * the API with the bare handler on this one (dispatched by `dispatchRoutes`, as the API is), then the whole API (route mounting: access checks,
 * validation, idempotency, the route's handler). autocannon runs in a child process, so its CPU is not
 * counted. Stacks alternate round by round; medians are printed. docs/performance.md cites it.
 */
const stack = (api: Api, workspaceId: string, depth: number, routed = false): Koa => {
  const koa = new Koa();
  const { app } = api;
  for (const layer of apiLayers(api).slice(0, depth)) for (const middleware of layer.middleware) koa.use(middleware);
  const read = async (ctx: Koa.Context, id: string) => {
    ctx.type = 'application/json';
    ctx.body = await customersOf(app).reads.requireJson(workspaceId, id, 'customer', customerJson);
  };
  if (!routed) {
    const prefix = '/v1/customers/'.length;
    koa.use((ctx) => read(ctx, ctx.path.slice(prefix)));
    return koa;
  }
  // @koa/router holding every route of the API, the bare read on this one, dispatched as the API
  // dispatches (dispatchRoutes): the routing's own cost.
  const router = new Router({ prefix: '/v1' });
  router.get('/customers/:id', (ctx) => read(ctx, ctx.params.id));
  for (const r of ROUTES) router[r.method](r.path, () => undefined);
  koa.use(dispatchRoutes(router));
  return koa;
};

/** What the bench's baseline serves: a constant customer-sized object, no read. */
const baselineStack = (): Koa => {
  const koa = new Koa();
  const body = { object: 'customer', id: 'cus_01M80MQ6VSWRNGY6FPC6J4VEDM', email: 'layers@example.com', name: 'Layers', status: 'active' };
  koa.use((ctx) => {
    ctx.body = body;
  });
  return koa;
};

/** 50 connections for `seconds`, from a child process. */
const load = (url: string, key: string, seconds: number): Promise<{ total: number; rps: number }> =>
  new Promise((resolve, reject) => {
    const script =
      "require('autocannon')({ url: process.argv[1], connections: 50, duration: Number(process.argv[2]), headers: { authorization: 'Bearer ' + process.argv[3] } }," +
      ' (e, r) => { if (e) throw e; process.stdout.write(JSON.stringify({ total: r.requests.total, rps: r.requests.average })); });';
    const child = spawn(process.execPath, ['-e', script, url, String(seconds), key], {
      stdio: ['ignore', 'pipe', 'inherit'],
      cwd: path.resolve(__dirname, '../..'),
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as { total: number; rps: number }) : reject(new Error(`autocannon exited with ${code}`))));
  });

const main = async () => {
  const seconds = Number(process.argv[2] ?? 4);
  const rounds = Number(process.argv[3] ?? 3);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'support-layers-'));
  const app = new Application({
    catalog: CATALOG,
    config: loadConfig({ DATA_DIR: dataDir, RATE_LIMIT_SCALE: '100000', AGENT_RERANKER: 'off' }),
    log: silentLogger,
    projector: true,
  });
  await app.start();
  try {
    const admin = { workspaceId: null, actor: 'bench', requestId: null };
    const { workspace } = await workspacesOf(app).commands.create(admin, { name: 'Layers', credits: 1_000_000 });
    const key = await workspacesOf(app).keys.create(admin, { workspaceId: workspace.id, name: 'layers' });
    const customer = await customersOf(app).commands.createOrMatch(
      { workspaceId: workspace.id, actor: 'bench', requestId: 'bench' },
      { email: 'layers@example.com', name: 'Layers' },
    );
    await app.settle(customer.position);
    const api = apiOf(app);
    const names = apiLayers(api).map((l) => l.name);
    const stacks = [
      { name: 'bare Koa (the baseline)', koa: baselineStack() },
      { name: 'bare Koa + the read', koa: stack(api, workspace.id, 0) },
      ...names.map((name, i) => ({ name: `+ ${name}`, koa: stack(api, workspace.id, i + 1) })),
      { name: '+ router (dispatchRoutes)', koa: stack(api, workspace.id, names.length, true) },
      { name: '+ route mounting (the API)', koa: createHttpApp(api) },
    ];
    const cpu = new Map<string, number[]>();
    const rps = new Map<string, number[]>();
    for (let round = 1; round <= rounds; round++) {
      for (const { name, koa } of stacks) {
        const server = koa.listen(0, '127.0.0.1');
        await new Promise((resolve) => server.once('listening', resolve));
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/customers/${customer.id}`;
        const probe = await fetch(url, { headers: { authorization: `Bearer ${key.key}` } });
        if (probe.status !== 200) throw new Error(`${name}: ${probe.status} ${await probe.text()}`);
        await load(url, key.key, 1);
        const before = process.cpuUsage();
        const r = await load(url, key.key, seconds);
        const used = process.cpuUsage(before);
        cpu.set(name, [...(cpu.get(name) ?? []), (used.user + used.system) / r.total]);
        rps.set(name, [...(rps.get(name) ?? []), r.rps]);
        await new Promise((resolve) => server.close(resolve));
        process.stderr.write(`round ${round}/${rounds}: ${name}\n`);
      }
    }
    process.stdout.write(`${'stack'.padEnd(32)} ${'req/s'.padStart(7)} ${'CPU µs/req'.padStart(11)} ${'added'.padStart(6)}\n`);
    let previous: number | null = null;
    for (const { name } of stacks) {
      const us = median(cpu.get(name)!);
      const added = previous === null ? '' : `${us >= previous ? '+' : ''}${Math.round(us - previous)}`;
      process.stdout.write(
        `${name.padEnd(32)} ${String(Math.round(median(rps.get(name)!))).padStart(7)} ${String(Math.round(us)).padStart(11)} ${added.padStart(6)}\n`,
      );
      previous = us;
    }
  } finally {
    await app.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
};

if (require.main === module)
  main().catch((err) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  });
