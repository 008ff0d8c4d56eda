import { ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import os from 'node:os';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';

/**
 * `--pin` (on a machine with 2 cores or more, and taskset): the service and the baseline run on
 * core 0, this process (the load generator) on core 1, so the load does not compete with what
 * it measures. Without it, unpinned: the scheduler decides.
 */
export const PINNED: { children: string; self: string } | null = (() => {
  if (!process.argv.includes('--pin')) return null;
  if (os.cpus().length < 2) throw new Error('--pin needs 2 cores or more');
  execFileSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' });
  return { children: '0', self: '1' };
})();

/** What the report's first line says of the placement. */
export const placement = (): string =>
  PINNED
    ? `pinned (--pin): service and baseline on core ${PINNED.children}, load generator on core ${PINNED.self}`
    : `unpinned: service, baseline and load generator share the machine's ${os.cpus().length} cores (--pin separates them)`;

export interface Child {
  proc: ChildProcess;
  /** The first capture of `pattern` seen on stdout. */
  match: string;
  /** Later stdout lines matching `keepPattern`, if one was given (the others are dropped). */
  kept: string[];
}

/** Starts `node <script>` and waits for a stdout line matching `pattern`; later output is drained and dropped, but for lines matching `keepPattern`. */
export const startNode = (
  script: string,
  env: NodeJS.ProcessEnv,
  pattern: RegExp,
  timeoutMs = 20_000,
  keepPattern?: RegExp,
  nodeArgs: string[] = [],
): Promise<Child> =>
  new Promise((resolve, reject) => {
    const command = PINNED
      ? (['taskset', ['-c', PINNED.children, process.execPath, ...nodeArgs, script]] as const)
      : ([process.execPath, [...nodeArgs, script]] as const);
    const proc = spawn(command[0], command[1], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const tail: string[] = [];
    // BENCH_LOG_DIR keeps every child's whole output, a file per service and instance, appended (for a look at why a figure is what it is).
    const file = process.env.BENCH_LOG_DIR
      ? createWriteStream(path.join(process.env.BENCH_LOG_DIR, `${path.basename(path.dirname(path.dirname(script)))}-${env.INSTANCE_ID ?? proc.pid}.log`), {
          flags: 'a',
        })
      : null;
    const keep = (line: string) => {
      file?.write(`${line}\n`);
      tail.push(line);
      if (tail.length > 20) tail.shift();
    };
    const fail = (why: string) => {
      clearTimeout(timer);
      proc.kill('SIGKILL');
      reject(new Error(`${script}: ${why}\n${tail.join('\n')}`));
    };
    const timer = setTimeout(() => fail(`no line matching ${pattern} within ${timeoutMs} ms`), timeoutMs);
    let found = false;
    const kept: string[] = [];
    createInterface({ input: proc.stderr }).on('line', keep);
    createInterface({ input: proc.stdout }).on('line', (line) => {
      keep(line);
      if (found && keepPattern?.test(line) && kept.length < 1000) kept.push(line);
      const m = found ? null : pattern.exec(line);
      if (m) {
        found = true;
        clearTimeout(timer);
        resolve({ proc, match: m[1], kept });
      }
    });
    proc.once('error', (err) => fail(err.message));
    proc.once('exit', (code, signal) => {
      file?.end();
      if (!found) fail(`exited early (code ${code}, signal ${signal})`);
    });
  });

/** SIGTERM, then wait for exit (SIGKILL if it takes too long). */
export const stop = async (child: ChildProcess | undefined, graceMs = 15_000): Promise<void> => {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
};

/** Runs `node <script> ...args` to completion and parses its stdout as one JSON object. */
export const nodeJson = async (script: string, args: string[], env: NodeJS.ProcessEnv): Promise<Record<string, unknown>> => {
  const { stdout } = await promisify(execFile)(process.execPath, [script, ...args], { env: { ...process.env, ...env } });
  return JSON.parse(stdout) as Record<string, unknown>;
};

/** The service's environment in the bench's runs: its own data folder, info logs, no rate limit in the way, the embedding model as configured (AGENT_RERANKER=off for BM25 alone). */
export const benchServiceEnv = (dataDir: string): NodeJS.ProcessEnv => ({
  PORT: '0',
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'info',
  RATE_LIMIT_SCALE: '100000',
  AGENT_RERANKER: process.env.AGENT_RERANKER ?? 'auto',
});
