import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { databaseFor, mongoServerUrl, withDatabase } from './ferret';

export const ROOT = resolve(__dirname, '../../..');
const STANDALONE = join(ROOT, 'services/standalone/dist/main.js');
export const ADMIN = join(ROOT, 'services/admin/dist/main.js');

export const tempDir = (prefix = 'svc-') => mkdtempSync(join(tmpdir(), prefix));

export interface Service {
  baseUrl: string;
  dataDir: string;
  output: string[];
  child: ChildProcess;
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Where the services and admin runs of this test process keep their read models: MongoDB when
 * TEST_READ_STORE=mongo (the suites under e2e/mongo set it) or MONGODB_URL is set, with a
 * database of its own per data directory; otherwise the embedded store in the data directory.
 */
export const readStoreOnMongo = (): boolean => process.env.TEST_READ_STORE === 'mongo' || !!process.env.MONGODB_URL;

export const readStoreEnv = async (dataDir: string): Promise<Record<string, string>> =>
  readStoreOnMongo() ? { MONGODB_URL: withDatabase(await mongoServerUrl(), databaseFor(dataDir)) } : {};

/** Starts the real standalone service (`npm start`'s entry point) on an ephemeral port. */
export const startService = async (dataDir: string, env: Record<string, string> = {}): Promise<Service> =>
  spawnService(dataDir, { ...(await readStoreEnv(dataDir)), ...env });

const spawnService = (dataDir: string, env: Record<string, string>): Promise<Service> => startProcess(STANDALONE, dataDir, env);

/** A service's main (`services/<name>/dist/main.js`). */
export const serviceMain = (name: string) => join(ROOT, `services/${name}/dist/main.js`);

/**
 * Starts a service's main on an ephemeral port and resolves once it prints its `listening on`
 * line: `baseUrl` is the API's (`…/v1`) or, for a service without the API, its health server's.
 */
export const startProcess = (main: string, dataDir: string, env: Record<string, string>): Promise<Service> =>
  new Promise((resolveStart, reject) => {
    const child = spawn(process.execPath, [main], {
      // Limits are raised for functional tests; the rate-limit test sets its own scale.
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info', RATE_LIMIT_SCALE: '100', VALIDATE_RESPONSES: 'true', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: string[] = [];
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    const timer = setTimeout(() => reject(new Error(`service did not start:\n${output.join('\n')}`)), 20_000);
    const onLine = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        output.push(line);
        const m = /listening on (http:\/\/[^\s"]+)/.exec(line);
        if (m) {
          clearTimeout(timer);
          resolveStart({
            baseUrl: m[1],
            dataDir,
            output,
            child,
            stop: async (signal = 'SIGTERM') => {
              child.kill(signal);
              return exited;
            },
          });
        }
      }
    };
    child.stdout.on('data', onLine);
    child.stderr.on('data', onLine);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`service exited with ${code}:\n${output.join('\n')}`));
    });
  });

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion. */
export const run = (command: string, args: string[], env: Record<string, string>): Promise<CliResult> =>
  new Promise((resolveRun) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => {
      stdout += c;
    });
    child.stderr.on('data', (c) => {
      stderr += c;
    });
    child.once('exit', (code) => resolveRun({ code, stdout, stderr }));
  });

/** The admin CLI on a data directory (and its read store, as the service on it has). */
export const admin = async (dataDir: string, ...args: string[]) =>
  run(process.execPath, [ADMIN, ...args], { DATA_DIR: dataDir, ...(await readStoreEnv(dataDir)) });

/** The admin CLI with --json, parsed; fails loudly when the command fails. */
export const adminJson = async <T = Record<string, unknown>>(dataDir: string, ...args: string[]): Promise<T> => {
  const r = await admin(dataDir, ...args, '--json');
  if (r.code !== 0) throw new Error(`admin ${args.join(' ')} failed (${r.code}): ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
};

/** An event as `events replay` prints it (one JSON line each). */
export interface ReplayedEvent {
  position: string;
  stream: string;
  revision: number;
  id: string;
  type: string;
  data: any;
  metadata: any;
}

/** `events replay` through the admin CLI (extra args: `--workspace ID`, `--from POSITION`), parsed; fails loudly when it fails. */
export const replayEvents = async (dataDir: string, ...args: string[]): Promise<ReplayedEvent[]> => {
  const r = await admin(dataDir, 'events', 'replay', ...args);
  if (r.code !== 0) throw new Error(`admin events replay ${args.join(' ')} failed (${r.code}): ${r.stderr}`);
  return r.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as ReplayedEvent);
};

export const removeDir = (dir: string) => rmSync(dir, { recursive: true, force: true });
