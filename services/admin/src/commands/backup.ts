import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Application, type Config, eventsInCopy, EMBEDDED_FILES, installCopy, integrityOf } from '@support/application';
import { formatPosition } from '@support/eventstore';
import { API_VERSION } from '@support/http';
import { flags, type Output, required, UsageError } from '../cli';

/** What a backup folder holds besides the files: when it was taken, the files and the events in the copied log. */
const MANIFEST = 'backup.json';
interface Manifest {
  format: 1;
  api_version: string;
  created_at: string;
  files: { name: string; bytes: number }[];
  events: number;
}

/**
 * `admin backup --to DIR`: the embedded default's read store, then its log, copied consistently
 * while the service runs and writes (docs/operating/backup.md). DIR must be new or empty.
 */
export const backupCommand = async (app: Application, out: Output, args: string[]) => {
  const v = flags(args, { to: 'string' });
  const dir = resolve(required(v, 'to'));
  const snapshot = app.engines.snapshot;
  if (!snapshot)
    throw new UsageError(
      `backup copies the embedded default (SQLite in $DATA_DIR); this process runs ${app.engines.describe.events} and ${app.engines.describe.reads}: back them up with their own tools (docs/operating/backup.md)`,
    );
  if (existsSync(dir) && readdirSync(dir).length > 0) throw new UsageError(`--to ${dir} is not empty: back up into a new folder`);
  mkdirSync(dir, { recursive: true });
  const started = Date.now();
  const files = await snapshot(dir, (file) => out.progress(`copying ${file}…`));
  const head = await app.engines.events.head();
  const manifest: Manifest = {
    format: 1,
    api_version: API_VERSION,
    created_at: new Date(started).toISOString(),
    files: files.map((name) => ({ name, bytes: statSync(join(dir, name)).size })),
    events: eventsInCopy(dir),
  };
  writeFileSync(join(dir, MANIFEST), JSON.stringify(manifest, null, 2) + '\n');
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
  if (config.eventstoreUrl || config.mongodbUrl) throw new UsageError('restore writes the embedded default ($DATA_DIR); EVENTSTORE_URL or MONGODB_URL is set');
  const manifestFile = join(from, MANIFEST);
  if (!existsSync(manifestFile)) throw new UsageError(`${from} holds no ${MANIFEST}: not a backup made by admin backup`);
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
  } catch {
    throw new Error(`${manifestFile} is not valid JSON: not a backup this version can restore`);
  }
  if (manifest.format !== 1) throw new UsageError(`${from}: backup format ${String(manifest.format)} is not one this version restores`);
  // Only the embedded files, each once: a manifest never names a path elsewhere.
  const names = (manifest.files ?? []).map((f) => f.name).sort();
  const expected = Object.values(EMBEDDED_FILES).sort();
  if (JSON.stringify(names) !== JSON.stringify(expected))
    throw new Error(`${manifestFile} must name exactly ${expected.join(' and ')} (it names ${names.join(', ') || 'nothing'})`);
  const started = Date.now();
  for (const { name } of manifest.files) {
    out.progress(`checking ${name}…`);
    const verdict = integrityOf(join(from, name));
    if (verdict !== 'ok') throw new Error(`${name} in ${from} fails SQLite's integrity check: ${verdict}`);
  }
  const events = eventsInCopy(from);
  if (events !== manifest.events) throw new Error(`${from}: the log holds ${events} events, its manifest says ${manifest.events}`);
  const dataDir = resolve(config.dataDir);
  mkdirSync(dataDir, { recursive: true });
  if (existsSync(join(dataDir, EMBEDDED_FILES.events)) && v.replace !== true)
    throw new UsageError(`${dataDir} already holds a log (${EMBEDDED_FILES.events}): stop the service and pass --replace to overwrite it`);
  for (const { name } of manifest.files) {
    out.progress(`restoring ${name}…`);
    installCopy(from, dataDir, name);
  }
  out.result({ from, to: dataDir, created_at: manifest.created_at, files: manifest.files, events, took_ms: Date.now() - started });
};
