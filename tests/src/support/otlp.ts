import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A span as an OTLP/HTTP JSON export carries it, with its service. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, unknown>;
}

/** OTLP JSON ids are hex; some exporters send base64: both read as hex. */
const hex = (id: unknown): string => {
  if (typeof id !== 'string' || id === '') return '';
  return /^[0-9a-f]+$/i.test(id) && (id.length === 32 || id.length === 16) ? id.toLowerCase() : Buffer.from(id, 'base64').toString('hex');
};

const valueOf = (v: Record<string, unknown>): unknown => v.stringValue ?? v.intValue ?? v.boolValue ?? v.doubleValue;

/**
 * A small OTLP/HTTP receiver (POST /v1/traces, JSON), as a collector would be: the services
 * under test export their spans to it, and the test reads them back by trace.
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];

  private constructor(private readonly server: Server) {}

  static async start(): Promise<OtlpReceiver> {
    let receiver!: OtlpReceiver;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.method === 'POST' && req.url === '/v1/traces') {
          receiver.take(JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport);
          res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
        } else res.writeHead(404).end();
      });
    });
    receiver = new OtlpReceiver(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The environment that makes a service export to this receiver, at once. */
  env(): Record<string, string> {
    return { OTEL_EXPORTER_OTLP_ENDPOINT: this.url, OTEL_BSP_SCHEDULE_DELAY: '50' };
  }

  trace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((s) => s.traceId === traceId);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private take(body: OtlpExport): void {
    for (const rs of body.resourceSpans ?? []) {
      const name = valueOf(rs.resource?.attributes?.find((a) => a.key === 'service.name')?.value ?? {});
      const service = typeof name === 'string' ? name : '';
      for (const ss of rs.scopeSpans ?? [])
        for (const s of ss.spans ?? [])
          this.spans.push({
            service,
            traceId: hex(s.traceId),
            spanId: hex(s.spanId),
            parentSpanId: hex(s.parentSpanId),
            name: s.name,
            kind: s.kind,
            attributes: Object.fromEntries((s.attributes ?? []).map((a) => [a.key, valueOf(a.value)])),
          });
    }
  }
}

interface OtlpExport {
  resourceSpans?: {
    resource?: { attributes?: { key: string; value: Record<string, unknown> }[] };
    scopeSpans?: {
      spans?: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        attributes?: { key: string; value: Record<string, unknown> }[];
      }[];
    }[];
  }[];
}
