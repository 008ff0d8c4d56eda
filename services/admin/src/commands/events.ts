import type { Application } from '@support/application';
import { comparePositions, formatPosition, parsePosition, type RecordedEvent, START } from '@support/eventstore';
import { workspacesOf } from '@support/workspaces';
import { flags, Output, Refused, UsageError } from '../cli';

const REDACTED = '[redacted]';

/**
 * Secrets are in the log (the dispatcher signs with webhook secrets; channels keep their tokens
 * in `config`; a receiver may take a token in its URL) but not in an audit print: a `secret` is
 * hidden whole, a `config`'s settings and a `url`'s query values and password each by value
 * (their names show what changed), in an event's data and in its `changes`.
 */
const redact = (data: unknown): unknown => {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return data;
  return Object.fromEntries(
    Object.entries(data).map(([field, value]) => {
      if (field === 'secret') return [field, REDACTED];
      if (field === 'config' && value && typeof value === 'object')
        return [field, Object.fromEntries(Object.keys(value as object).map((name) => [name, REDACTED]))];
      if (field === 'url' && typeof value === 'string') return [field, redactUrl(value)];
      return [field, field === 'changes' ? redact(value) : value];
    }),
  );
};

/** A URL with its password, each query value and its fragment hidden (`?token=…` authenticates some receivers). */
const redactUrl = (text: string): string => {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return text;
  }
  if (url.password === '' && url.search === '' && url.hash === '') return text;
  if (url.password !== '') url.password = REDACTED;
  if (url.hash !== '') url.hash = REDACTED;
  const names = [...url.searchParams.keys()];
  url.search = names.map((name) => `${encodeURIComponent(name)}=${REDACTED}`).join('&');
  return url.toString();
};

/**
 * Which workspace's history an event is: its metadata's, else its stream's (the first of the
 * stream's events that names one, looked up once a stream). Logs written before every writer
 * named it (a key revoked from the CLI, an endpoint's delivery outcomes) still replay whole.
 */
const workspaces = (app: Application) => {
  const ofStream = new Map<string, string | null>();
  return async (e: RecordedEvent): Promise<string | null> => {
    if (e.metadata.workspace_id) return e.metadata.workspace_id;
    if (!ofStream.has(e.stream)) {
      const named = (await app.engines.events.readStream(e.stream)).find((x) => x.metadata.workspace_id);
      ofStream.set(e.stream, named?.metadata.workspace_id ?? null);
    }
    return ofStream.get(e.stream)!;
  };
};

/** Audit print of history: one JSON line per event, oldest first, streamed. */
export const eventsCommand = async (app: Application, out: Output, [sub, ...args]: string[]) => {
  if (sub !== 'replay') throw new UsageError('events commands: replay');
  const v = flags(args, { workspace: 'string', from: 'string' });
  let after = START;
  if (typeof v.from === 'string') {
    try {
      after = parsePosition(v.from);
    } catch {
      throw new UsageError('--from takes a position printed by an earlier replay');
    }
  }
  // A mistyped id, or a position this log never reached (another log's, one from before a
  // restore), would print no history, which reads as "nothing happened".
  if (typeof v.workspace === 'string' && !(await workspacesOf(app).commands.get(v.workspace))) throw new Refused(`workspace ${v.workspace} not found`);
  const head = await app.engines.events.head();
  if (comparePositions(after, head) > 0)
    throw new Refused(`--from ${v.from}: this log's last event is at ${formatPosition(head)}; a position is only meaningful in the log that printed it`);
  const workspaceOf = workspaces(app);
  let count = 0;
  for (;;) {
    const batch = await app.engines.events.readAll(after, 500);
    if (batch.length === 0) break;
    for (const e of batch) {
      if (typeof v.workspace === 'string' && (await workspaceOf(e)) !== v.workspace) continue;
      const line = {
        position: formatPosition(e.position),
        stream: e.stream,
        revision: e.revision,
        id: e.id,
        type: e.type,
        data: redact(e.data),
        metadata: e.metadata,
      };
      if (!process.stdout.write(JSON.stringify(line) + '\n')) await new Promise((r) => process.stdout.once('drain', r));
      count += 1;
    }
    after = batch[batch.length - 1].position;
  }
  out.progress(`${count} events`);
};
