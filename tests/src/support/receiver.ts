import { writeFileSync } from 'node:fs';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { tempDir } from './service';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  /** The exact bytes received, as the signature covers them. */
  raw: Buffer;
  body: any;
  at: number;
}

export interface Reply { status: number; headers?: Record<string, string>; body?: string; delayMs?: number }

/**
 * A local HTTPS webhook receiver with a self-signed certificate. The service trusts it through
 * NODE_EXTRA_CA_CERTS=caFile. `reply` decides each answer (default 200).
 */
export class Receiver {
  readonly received: Received[] = [];
  /** May answer later (a promise): a test can hold attempts in flight until it releases them. */
  reply: (r: Received) => Reply | Promise<Reply> = () => ({ status: 200, body: 'ok' });

  private constructor(private readonly server: https.Server, readonly caFile: string) {}

  static async start(): Promise<Receiver> {
    const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
      keyType: 'ec',
      algorithm: 'sha256',
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] }],
    });
    const caFile = join(tempDir('ca-'), 'receiver.pem');
    writeFileSync(caFile, pems.cert);
    let self: Receiver;
    const server = https.createServer({ key: pems.private, cert: pems.cert }, (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        let body: unknown = null;
        try { body = JSON.parse(raw.toString()); } catch { body = raw.toString(); }
        const r: Received = { path: req.url ?? '', headers: req.headers, raw, body, at: Date.now() };
        self.received.push(r);
        void Promise.resolve(self.reply(r)).then((reply) => {
          setTimeout(() => { res.writeHead(reply.status, reply.headers ?? {}); res.end(reply.body ?? ''); }, reply.delayMs ?? 0);
        });
      });
    });
    self = new Receiver(server, caFile);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return self;
  }

  get port(): number { return (this.server.address() as AddressInfo).port; }
  url(path = '/hook', host = 'localhost'): string { return `https://${host}:${this.port}${path}`; }

  on(path: string): Received[] { return this.received.filter((r) => r.path === path); }

  async waitFor(path: string, count: number, ms = 10_000): Promise<Received[]> {
    const until = Date.now() + ms;
    while (this.on(path).length < count) {
      if (Date.now() > until) throw new Error(`${path}: received ${this.on(path).length} of ${count} within ${ms} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return this.on(path);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }
}

/** Environment for a service that may deliver to this receiver quickly. */
export const webhookEnv = (receiver: Receiver, extra: Record<string, string> = {}) => ({
  NODE_EXTRA_CA_CERTS: receiver.caFile,
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  WEBHOOK_RETRY_BASE_MS: '100',
  WEBHOOK_RETRY_MAX_MS: '400',
  ...extra,
});
