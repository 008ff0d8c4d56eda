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
  /** How long a write waits for its own events to reach the read models. */
  readYourWritesTimeoutMs: number;
  /** Take the client address from X-Forwarded-For (behind a proxy). */
  trustProxy: boolean;
}

const int = (value: string | undefined, fallback: number, name: string): number => {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number (got "${value}")`);
  return n;
};

export const loadConfig = (env: NodeJS.ProcessEnv = process.env): Config => ({
  host: env.HOST || '0.0.0.0',
  port: int(env.PORT, 8080, 'PORT'),
  dataDir: env.DATA_DIR || './data',
  eventstoreUrl: env.EVENTSTORE_URL || undefined,
  mongodbUrl: env.MONGODB_URL || undefined,
  natsUrl: env.NATS_URL || undefined,
  logLevel: env.LOG_LEVEL || 'info',
  rateLimitScale: int(env.RATE_LIMIT_SCALE, 1, 'RATE_LIMIT_SCALE'),
  readYourWritesTimeoutMs: int(env.READ_YOUR_WRITES_TIMEOUT_MS, 5000, 'READ_YOUR_WRITES_TIMEOUT_MS'),
  trustProxy: env.TRUST_PROXY === 'true',
});
