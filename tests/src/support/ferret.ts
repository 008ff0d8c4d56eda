import { ChildProcess, execFile, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { MongoClient } from 'mongodb';
import { acceptsConnections, freePort, sleep } from './net';

/**
 * Tests that need a MongoDB-wire server run against MONGODB_URL, or a FerretDB of their own
 * built by `bash scripts/ferretdb.sh build` into .engines/: on PostgreSQL when
 * FERRETDB_POSTGRESQL_URL names a server (`bash scripts/postgres.sh start`; CI does), each
 * FerretDB in a database of its own; else on SQLite in a temporary folder. In CI (CI=true) the
 * binary must be there: the tests fail instead of skipping.
 */
export const FERRETDB_VERSION = 'v1.24.2';
export const ferretBinary = (): string =>
  process.env.FERRETDB_BIN || join(resolve(__dirname, '../../..'), '.engines', `ferretdb-${FERRETDB_VERSION}`, 'ferretdb');

/** false when a MongoDB-wire server can be had (or must be, in CI); otherwise why the tests are skipped. */
export const mongoSkip = (): false | string => {
  if (process.env.MONGODB_URL || existsSync(ferretBinary()) || process.env.CI === 'true') return false;
  return `MONGODB_URL is not set and FerretDB is not built (bash scripts/ferretdb.sh build): MongoDB tests not run`;
};

/** The URL with its database replaced by `name` (options kept). */
export const withDatabase = (url: string, name: string): string => {
  const m = /^(mongodb(?:\+srv)?:\/\/[^/?]+)(?:\/[^?]*)?(\?.*)?$/.exec(url);
  if (!m) throw new Error(`not a MongoDB URL: ${url}`);
  return `${m[1]}/${name}${m[2] ?? ''}`;
};

/** A postgres:// URL with its database replaced. */
const withPgDatabase = (url: string, name: string): string => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};

/** A database name of its own for each data directory (stable: a restarted service finds its data). */
export const databaseFor = (dataDir: string): string => `t_${createHash('sha256').update(dataDir).digest('hex').slice(0, 20)}`;

/** Runs psql against the server of FERRETDB_POSTGRESQL_URL (creating and dropping FerretDB's databases). */
const psql = (url: string, sql: string) => promisify(execFile)('psql', [url, '-v', 'ON_ERROR_STOP=1', '-q', '-c', sql]);

/** A FerretDB of our own on a free loopback port: PostgreSQL (a database of its own) or SQLite files in a temporary directory. */
export class LocalFerretDb {
  private process: ChildProcess | undefined;
  private log = '';
  private readonly kill = () => this.process?.kill('SIGKILL');
  /** The PostgreSQL database it runs on (null: SQLite). */
  private database: { server: string; name: string } | null = null;

  private constructor(
    readonly port: number,
    readonly dataDir: string,
  ) {}

  /** `sqlite` or `postgresql`. */
  get backend(): string {
    return this.database ? 'postgresql' : 'sqlite';
  }

  get url(): string {
    return `mongodb://127.0.0.1:${this.port}/`;
  }

  static async start(): Promise<LocalFerretDb> {
    const bin = ferretBinary();
    if (!existsSync(bin)) throw new Error(`FerretDB is not built at ${bin}: run bash scripts/ferretdb.sh build (CI runs it before npm test)`);
    const server = new LocalFerretDb(await freePort(), mkdtempSync(join(tmpdir(), 'ferretdb-')));
    try {
      const postgres = process.env.FERRETDB_POSTGRESQL_URL;
      if (postgres) {
        server.database = { server: postgres, name: `ferret_${randomBytes(6).toString('hex')}` };
        await psql(postgres, `CREATE DATABASE ${server.database.name}`);
      }
      await server.run(bin);
    } catch (e) {
      await server.destroy();
      throw e;
    }
    return server;
  }

  private async run(bin: string): Promise<void> {
    const child = spawn(
      bin,
      [
        ...(this.database
          ? ['--handler=postgresql', `--postgresql-url=${withPgDatabase(this.database.server, this.database.name)}`]
          : ['--handler=sqlite', `--sqlite-url=file:${this.dataDir}/`]),
        `--listen-addr=127.0.0.1:${this.port}`,
        '--telemetry=disable',
        // No debug HTTP listener (its fixed default port would clash between servers) unless
        // FERRETDB_DEBUG_ADDR asks for one (its /debug/metrics count commands and their time).
        `--debug-addr=${process.env.FERRETDB_DEBUG_ADDR ?? '-'}`,
        `--state-dir=${this.dataDir}`,
        '--log-level=warn',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const keep = (b: Buffer) => {
      this.log = (this.log + b.toString()).slice(-4000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    this.process = child;
    // A test process that dies (tap's timeout) does not leave the server behind.
    process.once('exit', this.kill);
    const until = Date.now() + 15_000;
    while (!(await acceptsConnections(this.port))) {
      if (child.exitCode !== null || Date.now() > until) throw new Error(`FerretDB did not start:\n${this.log}`);
      await sleep(50);
    }
    const client = new MongoClient(this.url, { serverSelectionTimeoutMS: 5000 });
    try {
      await client.db('admin').command({ ping: 1 });
    } finally {
      await client.close();
    }
  }

  /** Starts it again on the same port and database, after `stop` (an outage that ends). */
  async restart(): Promise<void> {
    await this.stop();
    await this.run(ferretBinary());
  }

  async stop(): Promise<void> {
    const child = this.process;
    this.process = undefined;
    process.off('exit', this.kill);
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const killed = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(killed);
  }

  /** The test process may exit while the server runs (then 'exit' stops it). */
  unref(): void {
    const child = this.process;
    if (!child) return;
    child.unref();
    for (const stream of [child.stdout, child.stderr]) (stream as (NodeJS.ReadableStream & { unref?: () => void }) | null)?.unref?.();
  }

  /** For a process that is exiting: no waiting. */
  abandon(): void {
    this.kill();
    this.process = undefined;
    rmSync(this.dataDir, { recursive: true, force: true });
    // The process is exiting: its database is dropped with the cluster (scripts/postgres.sh stop).
  }

  async destroy(): Promise<void> {
    await this.stop();
    rmSync(this.dataDir, { recursive: true, force: true });
    const db = this.database;
    this.database = null;
    if (db) await psql(db.server, `DROP DATABASE IF EXISTS ${db.name} WITH (FORCE)`).catch(() => undefined);
  }
}

let shared: Promise<LocalFerretDb> | null = null;

/**
 * The MongoDB-wire server of this test process: MONGODB_URL, else one FerretDB started on first
 * use and stopped when the process exits. Give each store a database of its own (withDatabase).
 */
export const mongoServerUrl = async (): Promise<string> => {
  if (process.env.MONGODB_URL) return process.env.MONGODB_URL;
  if (!shared) {
    const starting = LocalFerretDb.start();
    shared = starting;
    starting.catch(() => {
      if (shared === starting) shared = null;
    });
    const server = await starting;
    // It does not keep the test process alive, and ends with it, whichever way that ends.
    server.unref();
    process.once('exit', () => server.abandon());
  }
  return (await shared).url;
};
