import { createHash } from 'node:crypto';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  type Application,
  checkpointsBeyond,
  type Config,
  eventsInCopy,
  EMBEDDED_FILES,
  fileInUse,
  installCopies,
  integrityOf,
  logHeadOfCopy,
} from '@support/application';
import { formatPosition } from '@support/eventstore';
import { API_VERSION } from '@support/http';
import { flags, type Output, Refused, required } from '../cli';

/** What a backup folder holds besides the files: when it was taken, the files and the events in the copied log. */
const MANIFEST = 'backup.json';
interface Manifest {
  format: 1;
  api_version: string;
  created_at: string;
  /** `sha256` since 2026-11-27: older backups are checked by size alone. */
  files: { name: string; bytes: number; sha256?: string }[];
  events: number;
}

/** A file's sha256, read in 1 MiB pieces: a log of several GiB is never held in memory whole. */
const sha256Of = (file: string): string => {
  const hash = createHash('sha256');
  const piece = Buffer.alloc(1 << 20);
  const fd = openSync(file, 'r');
  try {
    for (let n = readSync(fd, piece); n > 0; n = readSync(fd, piece)) hash.update(piece.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
};

/** Semantic versions compared: negative when a is older than b. */
const compareVersions = (a: string, b: string): number => {
  const [x, y] = [a, b].map((v) => v.split('.').map((n) => Number.parseInt(n, 10) || 0));
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
};

/** The folder `backup --to DIR` names (a usage error without one, before anything is opened). */
export const backupTarget = (args: string[]): string => {
  const dir = resolve(required(flags(args, { to: 'string' }), 'to'));
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new Refused(`--to ${dir} is a file: back up into a new folder`);
  return dir;
};

/** SQLite's verdict on a damaged file, short: its first lines and how many more (a page list runs to dozens). */
const firstLines = (text: string, keep = 3): string => {
  const lines = text.trim().split('\n');
  return lines.length <= keep ? lines.join(' / ') : `${lines.slice(0, keep).join(' / ')} (and ${lines.length - keep} more lines)`;
};

/** How many events a log holds, or why that cannot be told (a damaged log is replaced all the same). */
const eventsOrWhy = (dir: string): string => {
  try {
    return `${eventsInCopy(dir)} events`;
  } catch (err) {
    return `unknown size (${err instanceof Error ? err.message : String(err)})`;
  }
};

/**
 * `admin backup --to DIR`: the embedded default's read store, then its log, copied consistently
 * while the service runs and writes (docs/operating/backup.md). DIR must be new or empty.
 */
export const backupCommand = async (app: Application, out: Output, args: string[]) => {
  const dir = backupTarget(args);
  const snapshot = app.engines.snapshot;
  if (!snapshot)
    throw new Refused(
      `backup copies the embedded default (SQLite in $DATA_DIR); this process runs ${app.engines.describe.events} and ${app.engines.describe.reads}: back them up with their own tools (docs/operating/backup.md)`,
    );
  if (existsSync(dir) && readdirSync(dir).length > 0) throw new Refused(`--to ${dir} is not empty: back up into a new folder`);
  // Owner only: a backup holds customers' data, webhook signing secrets and channel tokens.
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const started = Date.now();
  const files = await snapshot(dir, (file) => out.progress(`copying ${file}…`));
  for (const name of files) chmodSync(join(dir, name), 0o600);
  const head = await app.engines.events.head();
  const manifest: Manifest = {
    format: 1,
    api_version: API_VERSION,
    created_at: new Date(started).toISOString(),
    files: files.map((name) => ({ name, bytes: statSync(join(dir, name)).size, sha256: sha256Of(join(dir, name)) })),
    events: eventsInCopy(dir),
  };
  writeFileSync(join(dir, MANIFEST), JSON.stringify(manifest, null, 2) + '\n', { mode: 0o600 });
  out.result({ to: dir, ...manifest, log_head_after: formatPosition(head), took_ms: Date.now() - started });
};

/**
 * `admin restore --from DIR [--replace]`: the backup's files, checked, into $DATA_DIR. The
 * service must be stopped; an existing log is replaced only with --replace. Nothing of the
 * folder is touched until every file has passed SQLite's integrity check.
 */
export const restoreCommand = async (config: Config, out: Output, args: string[]) => {
  const v = flags(args, { from: 'string', replace: 'boolean' });
  const from = resolve(required(v, 'from'));
  if (config.eventstoreUrl || config.mongodbUrl) throw new Refused('restore writes the embedded default ($DATA_DIR); EVENTSTORE_URL or MONGODB_URL is set');
  const manifestFile = join(from, MANIFEST);
  if (!existsSync(from)) throw new Refused(`--from ${from} does not exist`);
  if (!existsSync(manifestFile)) throw new Refused(`${from} holds no ${MANIFEST}: not a backup made by admin backup`);
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
  } catch {
    throw new Error(`${manifestFile} is not valid JSON: not a backup this version can restore`);
  }
  if (manifest.format !== 1) throw new Refused(`${from}: backup format ${String(manifest.format)} is not one this version restores`);
  // Only the embedded files, each once: a manifest never names a path elsewhere.
  const names = (manifest.files ?? []).map((f) => f.name).sort();
  const expected = Object.values(EMBEDDED_FILES).sort();
  if (JSON.stringify(names) !== JSON.stringify(expected))
    throw new Error(`${manifestFile} must name exactly ${expected.join(' and ')} (it names ${names.join(', ') || 'nothing'})`);
  // A newer version may have written event types or versions this one cannot read.
  if (typeof manifest.api_version !== 'string' || compareVersions(manifest.api_version, API_VERSION) > 0)
    throw new Error(
      `${from} was made by version ${String(manifest.api_version)}, newer than this one (${API_VERSION}): restore it with that version or a later one`,
    );
  const started = Date.now();
  for (const { name, bytes, sha256 } of manifest.files) {
    out.progress(`checking ${name}…`);
    const file = join(from, name);
    if (!existsSync(file)) throw new Error(`${from} lacks ${name}, which its manifest names`);
    // The files the backup wrote, not others put in their place (a read store from another backup).
    const size = statSync(file).size;
    if (size !== bytes) throw new Error(`${name} in ${from} holds ${size} bytes, its manifest says ${bytes}: not the file this backup wrote`);
    if (sha256 !== undefined && sha256Of(file) !== sha256)
      throw new Error(`${name} in ${from} does not match its manifest's sha256: not the file this backup wrote`);
    const verdict = integrityOf(file);
    if (verdict !== 'ok') throw new Error(`${name} in ${from} fails SQLite's integrity check: ${firstLines(verdict)}`);
  }
  const events = eventsInCopy(from);
  if (events !== manifest.events) throw new Error(`${from}: the log holds ${events} events, its manifest says ${manifest.events}`);
  const ahead = checkpointsBeyond(from, logHeadOfCopy(from));
  if (ahead.length > 0)
    throw new Error(`${from}: the read store's checkpoints (${ahead.join(', ')}) lie beyond its log: the two files come from different backups`);
  const dataDir = resolve(config.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const present = Object.values(EMBEDDED_FILES).filter((name) => existsSync(join(dataDir, name)));
  if (present.length > 0 && v.replace !== true)
    throw new Refused(
      `${dataDir} already holds ${present.join(' and ')}: stop the service and pass --replace to overwrite ${present.length > 1 ? 'them' : 'it'}`,
    );
  // Said before it happens: --replace given out of habit on the wrong DATA_DIR discards a whole log.
  if (present.includes(EMBEDDED_FILES.events)) out.progress(`replacing ${dataDir}'s log of ${eventsOrWhy(dataDir)} with the backup's ${events}`);
  // Replacing files a running process holds open loses everything it writes after: it goes on writing to the deleted files.
  for (const name of Object.values(EMBEDDED_FILES)) {
    const target = join(dataDir, name);
    if (existsSync(target) && fileInUse(target))
      throw new Error(`${target} is open in another process (the service, or a backup): stop it first; nothing was restored`);
  }
  installCopies(
    from,
    dataDir,
    manifest.files.map((f) => f.name),
    (name) => out.progress(`restoring ${name}…`),
  );
  out.result({ from, to: dataDir, created_at: manifest.created_at, files: manifest.files, events, took_ms: Date.now() - started });
};
