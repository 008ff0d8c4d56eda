import { writeFileSync } from 'node:fs';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { generate } from 'selfsigned';
import type { Client } from './client';
import { removeDir, tempDir } from './service';
import { until } from './wait';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  /** The exact bytes received, as the signature covers them. */
  raw: Buffer;
  body: any;
  at: number;
}

/** `delayMs`: a slow receiver. `hold`: the answer waits for it (the test decides when the attempt ends). */
export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  delayMs?: number;
  hold?: Promise<unknown>;
}

/**
 * A local HTTPS webhook receiver with a self-signed certificate. The service trusts it through
 * NODE_EXTRA_CA_CERTS=caFile. `reply` decides each answer (default 200).
 */
export class Receiver {
  readonly received: Received[] = [];
  reply: (r: Received) => Reply = () => ({ status: 200, body: 'ok' });

  private constructor(
    private readonly server: https.Server,
    readonly caFile: string,
  ) {}

  static async start(): Promise<Receiver> {
    const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
      keyType: 'ec',
      algorithm: 'sha256',
      extensions: [
        {
          name: 'subjectAltName',
          altNames: [
            { type: 2, value: 'localhost' },
            { type: 7, ip: '127.0.0.1' },
          ],
        },
      ],
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
        try {
          body = JSON.parse(raw.toString());
        } catch {
          body = raw.toString();
        }
        const r: Received = { path: req.url ?? '', headers: req.headers, raw, body, at: Date.now() };
        self.received.push(r);
        const reply = self.reply(r);
        const answer = () => {
          res.writeHead(reply.status, reply.headers ?? {});
          res.end(reply.body ?? '');
        };
        void Promise.resolve(reply.hold).then(() => setTimeout(answer, reply.delayMs ?? 0));
      });
    });
    self = new Receiver(server, caFile);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return self;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }
  url(path = '/hook', host = 'localhost'): string {
    return `https://${host}:${this.port}${path}`;
  }

  on(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  /** At least `count` requests on `path` (fewer when the deadline passes fails the test). */
  async waitFor(path: string, count: number, ms = 10_000): Promise<Received[]> {
    await until(() => this.on(path).length >= count, ms, 20, `${count} requests on ${path}`);
    return this.on(path);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
    removeDir(dirname(this.caFile));
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

export interface Delivery {
  id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempt_count: number;
  last_error: string | null;
  [field: string]: unknown;
}

/**
 * An endpoint's deliveries (newest first, up to 100) once `ready` holds for them and none is
 * pending: no attempt of any of them is still to come, so what a receiver got of them is final.
 */
export const settledDeliveries = async (
  api: Client,
  endpointId: string,
  ready: (deliveries: Delivery[]) => boolean = () => true,
  ms = 10_000,
): Promise<Delivery[]> => {
  let deliveries: Delivery[] = [];
  await until(
    async () => {
      deliveries = (await api.get(`/webhook_endpoints/${endpointId}/deliveries?limit=100`)).body.data;
      return ready(deliveries) && deliveries.every((d) => d.status !== 'pending');
    },
    ms,
    50,
    `settled deliveries of ${endpointId}`,
  );
  return deliveries;
};
