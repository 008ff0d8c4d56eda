import { isIP } from 'node:net';
import { hostname } from 'node:os';
import { SET_ASIDE_AFTER } from '@support/projections';
/** Everything the operator sets through the environment (operator interface). */
export interface Config {
  host: string;
  port: number;
  dataDir: string;
  eventstoreUrl?: string;
  mongodbUrl?: string;
  natsUrl?: string;
  logLevel: string;
  rateLimitScale: number;
  /** Names this process in leases and logs (scale-out); default `<hostname>:<pid>`. */
  instanceId: string;
  /** A lease (relay, SLA monitor, each read model's projector) not renewed for this long is taken over. */
  leaseTtlMs: number;
  /** GET /readyz answers 503 while a consumer of this process is further behind the log than this. */
  readyMaxLagMs: number;
  /** How long a write waits for its own events to reach the read models. */
  readYourWritesTimeoutMs: number;
  /** A projector sets aside the events a read model cannot apply after this many identical failures of their batch (0: never). */
  projectionSetAsideAfter: number;
  /** Take the client address from X-Forwarded-For (behind a proxy). */
  trustProxy: boolean;
  webhooks: {
    /** Dev/test only: let webhook URLs resolve to loopback and private addresses. */
    allowPrivateNetworks: boolean;
    /** CIDRs a webhook URL may resolve to despite the guard. */
    allowedCidrs: string[];
    retryBaseMs: number;
    retryMaxMs: number;
  };
  /** Mail for workspace notices; unset: .eml files under $DATA_DIR/outbox. */
  smtpUrl?: string;
  /** How often the SLA monitor scans open tickets. */
  slaIntervalMs: number;
  /** An OpenAI-compatible chat-completions endpoint for the agent; unset: the grounded responder. */
  /** How long a client may take to send its headers, and its whole request (then 408). */
  http: { headersTimeoutMs: number; requestTimeoutMs: number };
  /** Development and tests: every answer is checked against its route's response codec (a mismatch is a 500, logged). */
  validateResponses: boolean;
  /** The knowledge search's semantic re-ranker: `auto` (on when the model is present) or `off`. */
  agentReranker: 'auto' | 'off';
  llm?: { baseUrl: string; apiKey?: string; models: { essential: string; pro: string; ultra: string }; timeoutMs: number };
}

/** A whole number ≥ 0 written as digits only: `80.5`, `1e3` or `10ms` stop the start with a clear message. */
const int = (value: string | undefined, fallback: number, name: string): number => {
  if (value === undefined || value.trim() === '') return fallback;
  const text = value.trim();
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) throw new Error(`${name} must be a whole number ≥ 0 (got "${value}")`);
  return Number(text);
};

/** A number ≥ 0 in plain decimal notation (a multiplier such as RATE_LIMIT_SCALE may be 0.5). */
const decimal = (value: string | undefined, fallback: number, name: string): number => {
  if (value === undefined || value.trim() === '') return fallback;
  const text = value.trim();
  if (!/^\d+(\.\d+)?$/.test(text)) throw new Error(`${name} must be a number ≥ 0 in decimal notation (got "${value}")`);
  return Number(text);
};

const oneOf = <V extends string>(value: string | undefined, allowed: readonly V[], fallback: V, name: string): V => {
  if (value === undefined || value === '') return fallback;
  if (!(allowed as readonly string[]).includes(value)) throw new Error(`${name} must be one of ${allowed.join(', ')} (got "${value}")`);
  return value as V;
};

/** `true` or `false` (unset: `fallback`): a typo such as `yes` would otherwise mean `false`, silently. */
const flag = (value: string | undefined, fallback: boolean, name: string): boolean => {
  if (value === undefined || value.trim() === '') return fallback;
  if (value.trim() === 'true') return true;
  if (value.trim() === 'false') return false;
  throw new Error(`${name} must be true or false (got "${value}")`);
};

/**
 * Comma-separated CIDRs, each an address node:net accepts and a prefix length its family allows:
 * a typo would otherwise allow nothing, silently, where the operator meant to allow a network.
 */
const cidrs = (value: string | undefined, name: string): string[] =>
  (value ?? '')
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean)
    .map((entry) => {
      const [address, bits, ...rest] = entry.split('/');
      const family = isIP(address);
      if (family === 0 || rest.length > 0 || bits === undefined || !/^\d{1,3}$/.test(bits) || Number(bits) > (family === 4 ? 32 : 128))
        throw new Error(`${name}: "${entry}" is not a CIDR (expected e.g. 10.1.0.0/16 or fd00::/8)`);
      return entry;
    });

export const loadConfig = (env: NodeJS.ProcessEnv = process.env): Config => {
  const config = readConfig(env);
  if (config.leaseTtlMs < 200) throw new Error('LEASE_TTL_MS must be at least 200 (leases are renewed every quarter of it)');
  if (config.http.headersTimeoutMs > config.http.requestTimeoutMs) throw new Error('HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS');
  return config;
};

const readConfig = (env: NodeJS.ProcessEnv): Config => ({
  host: env.HOST || '0.0.0.0',
  port: int(env.PORT, 8080, 'PORT'),
  dataDir: env.DATA_DIR || './data',
  eventstoreUrl: env.EVENTSTORE_URL || undefined,
  mongodbUrl: env.MONGODB_URL || undefined,
  natsUrl: env.NATS_URL || undefined,
  logLevel: oneOf(env.LOG_LEVEL, ['debug', 'info', 'warn', 'error'] as const, 'info', 'LOG_LEVEL'),
  rateLimitScale: decimal(env.RATE_LIMIT_SCALE, 1, 'RATE_LIMIT_SCALE'),
  instanceId: env.INSTANCE_ID || `${hostname()}:${process.pid}`,
  leaseTtlMs: int(env.LEASE_TTL_MS, 10_000, 'LEASE_TTL_MS'),
  readyMaxLagMs: int(env.READY_MAX_LAG_MS, 30_000, 'READY_MAX_LAG_MS'),
  readYourWritesTimeoutMs: int(env.READ_YOUR_WRITES_TIMEOUT_MS, 5000, 'READ_YOUR_WRITES_TIMEOUT_MS'),
  projectionSetAsideAfter: int(env.PROJECTION_SET_ASIDE_AFTER, SET_ASIDE_AFTER, 'PROJECTION_SET_ASIDE_AFTER'),
  trustProxy: flag(env.TRUST_PROXY, false, 'TRUST_PROXY'),
  webhooks: {
    allowPrivateNetworks: flag(env.WEBHOOK_ALLOW_PRIVATE_NETWORKS, false, 'WEBHOOK_ALLOW_PRIVATE_NETWORKS'),
    allowedCidrs: cidrs(env.WEBHOOK_ALLOWED_CIDRS, 'WEBHOOK_ALLOWED_CIDRS'),
    retryBaseMs: int(env.WEBHOOK_RETRY_BASE_MS, 60_000, 'WEBHOOK_RETRY_BASE_MS'),
    retryMaxMs: int(env.WEBHOOK_RETRY_MAX_MS, 3_600_000, 'WEBHOOK_RETRY_MAX_MS'),
  },
  smtpUrl: env.SMTP_URL || undefined,
  slaIntervalMs: int(env.SLA_MONITOR_INTERVAL_MS, 1000, 'SLA_MONITOR_INTERVAL_MS'),
  validateResponses: flag(env.VALIDATE_RESPONSES, false, 'VALIDATE_RESPONSES'),
  http: {
    headersTimeoutMs: int(env.HTTP_HEADERS_TIMEOUT_MS, 10_000, 'HTTP_HEADERS_TIMEOUT_MS'),
    requestTimeoutMs: int(env.HTTP_REQUEST_TIMEOUT_MS, 15_000, 'HTTP_REQUEST_TIMEOUT_MS'),
  },
  agentReranker: oneOf(env.AGENT_RERANKER, ['auto', 'off'] as const, 'auto', 'AGENT_RERANKER'),
  llm: env.LLM_BASE_URL
    ? {
        baseUrl: env.LLM_BASE_URL.replace(/\/+$/, ''),
        apiKey: env.LLM_API_KEY || undefined,
        models: {
          essential: env.LLM_MODEL_ESSENTIAL || 'gpt-4o-mini',
          pro: env.LLM_MODEL_PRO || env.LLM_MODEL_ESSENTIAL || 'gpt-4o',
          ultra: env.LLM_MODEL_ULTRA || env.LLM_MODEL_PRO || env.LLM_MODEL_ESSENTIAL || 'gpt-4o',
        },
        timeoutMs: int(env.LLM_TIMEOUT_MS, 20_000, 'LLM_TIMEOUT_MS'),
      }
    : undefined,
});

/**
 * The configuration of a process's main, or exit 1 with one JSON line naming what is wrong
 * (a bad setting stops the start, clearly, instead of running with a surprise).
 */
export const loadConfigOrExit = (env: NodeJS.ProcessEnv = process.env, out: NodeJS.WritableStream = process.stdout): Config => {
  try {
    return loadConfig(env);
  } catch (err) {
    out.write(
      `${JSON.stringify({ time: new Date().toISOString(), level: 'error', msg: 'invalid configuration; not starting', error: err instanceof Error ? err.message : String(err) })}\n`,
    );
    process.exit(1);
  }
};
