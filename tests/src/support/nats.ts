import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'nats';
import { acceptsConnections, freePort, sleep } from './net';

/** Tests that need NATS run against NATS_URL, or a nats-server they start (Debian's, in CI). */
export const natsServerInstalled = (): boolean => {
  const r = spawnSync('nats-server', ['--version'], { encoding: 'utf8' });
  return !r.error && r.status === 0;
};

/** A nats-server of our own: JetStream on, file store in a temporary directory. */
export class LocalNatsServer {
  private process: ChildProcess | undefined;
  private log = '';

  private constructor(
    readonly port: number,
    readonly storeDir: string,
  ) {}

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  static async start(): Promise<LocalNatsServer> {
    const server = new LocalNatsServer(await freePort(), mkdtempSync(join(tmpdir(), 'nats-')));
    try {
      await server.run();
    } catch (e) {
      await server.destroy();
      throw e;
    }
    return server;
  }

  private async run(): Promise<void> {
    this.log = '';
    const child = spawn('nats-server', ['-js', '-a', '127.0.0.1', '-p', String(this.port), '-sd', this.storeDir], { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr.on('data', (b: Buffer) => {
      this.log = (this.log + b.toString()).slice(-4000);
    });
    this.process = child;
    const until = Date.now() + 10_000;
    while (!(await acceptsConnections(this.port))) {
      if (child.exitCode !== null || Date.now() > until) throw new Error(`nats-server did not start:\n${this.log}`);
      await sleep(50);
    }
    // Accepting connections comes before JetStream has recovered its store: wait for its API too.
    for (;;) {
      const nc = await connect({ servers: this.url });
      try {
        await (await nc.jetstreamManager()).getAccountInfo();
        return;
      } catch (e) {
        if (Date.now() > until) throw new Error(`nats-server JetStream not ready: ${String(e)}\n${this.log}`);
      } finally {
        await nc.close();
      }
      await sleep(50);
    }
  }

  async stop(): Promise<void> {
    const child = this.process;
    this.process = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const killed = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(killed);
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.run();
  }

  async destroy(): Promise<void> {
    await this.stop();
    rmSync(this.storeDir, { recursive: true, force: true });
  }
}
