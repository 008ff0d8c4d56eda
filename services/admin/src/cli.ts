import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';

/** One run of the CLI, as its writes name it (`adminRun`). */
export type AdminRun = ReturnType<typeof adminRun>;

/** What a command prints: one JSON object with --json, else readable lines. */
export interface Output {
  json: boolean;
  result(value: Record<string, unknown>): void;
  /** Progress for long commands: always on stderr, so stdout stays one JSON object. */
  progress(message: string): void;
}

export const output = (json: boolean): Output => ({
  json,
  result(value) {
    if (json) process.stdout.write(JSON.stringify(value) + '\n');
    else for (const [k, v] of Object.entries(value)) process.stdout.write(`${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}\n`);
  },
  progress(message) {
    process.stderr.write(message + '\n');
  },
});

/**
 * Who writes, for one run of the CLI: `admin`, and a request id of its own (`admin_` and 32 hex
 * digits) that every event the run appends carries, so an auditor can tell one run's events
 * (an import's hundreds) from another's. Its log lines carry it too.
 */
export const adminRun = (): { workspaceId: null; actor: 'admin'; requestId: string } => ({
  workspaceId: null,
  actor: 'admin',
  requestId: `admin_${randomBytes(16).toString('hex')}`,
});

/** The admin CLI logs warnings and errors only, on stderr, unless LOG_LEVEL says otherwise. */
export const adminLogLevel = (): string => process.env.LOG_LEVEL ?? 'warn';

/** A mistake in how the command was called: printed with the usage, exit code 2. */
export class UsageError extends Error {}

/** A well-formed command refused (an unknown workspace, a folder not empty): printed alone, exit code 1. */
export class Refused extends Error {}

export const flags = (args: string[], spec: Record<string, 'string' | 'boolean'>) => {
  try {
    const { values, positionals } = parseArgs({
      args,
      options: { ...Object.fromEntries(Object.entries(spec).map(([k, type]) => [k, { type }])), json: { type: 'boolean' } },
      strict: true,
      allowPositionals: true,
    });
    if (positionals.length) throw new UsageError(`unexpected argument: ${positionals[0]}`);
    // parseArgs keeps the last of a repeated flag: `--name a --name b` would do b alone, silently.
    const given = args.filter((a) => a.startsWith('--')).map((a) => a.slice(2).split('=')[0]);
    const twice = given.find((name, i) => given.indexOf(name) !== i);
    if (twice !== undefined) throw new UsageError(`--${twice} is given twice`);
    return values as Record<string, string | boolean | undefined>;
  } catch (err) {
    throw err instanceof UsageError ? err : new UsageError((err as Error).message);
  }
};

export const required = (values: Record<string, unknown>, name: string): string => {
  const v = values[name];
  if (typeof v !== 'string' || v === '') throw new UsageError(`--${name} is required`);
  return v;
};

export const onOff = (value: unknown, name: string): boolean | undefined => {
  if (value === undefined) return undefined;
  if (value === 'on') return true;
  if (value === 'off') return false;
  throw new UsageError(`--${name} takes on or off`);
};

export const wholeNumber = (value: unknown, name: string, least = 0): number | undefined => {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d+$/.test(value) || Number(value) < least) throw new UsageError(`--${name} takes a whole number ≥ ${least}`);
  return Number(value);
};
