import type { Application } from '@support/application';
import { formatPosition, parsePosition, START } from '@support/eventstore';
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

/** A URL with its password and each query value hidden (`?token=…` authenticates some receivers). */
const redactUrl = (text: string): string => {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return text;
  }
  if (url.password === '' && url.search === '') return text;
  if (url.password !== '') url.password = REDACTED;
  const names = [...url.searchParams.keys()];
  url.search = names.map((name) => `${encodeURIComponent(name)}=${REDACTED}`).join('&');
  return url.toString();
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
  // A mistyped id would print no history, which reads as "nothing happened".
  if (typeof v.workspace === 'string' && !(await workspacesOf(app).commands.get(v.workspace))) throw new Refused(`workspace ${v.workspace} not found`);
  let count = 0;
  for (;;) {
    const batch = await app.engines.events.readAll(after, 500);
    if (batch.length === 0) break;
    for (const e of batch) {
      if (typeof v.workspace === 'string' && e.metadata.workspace_id !== v.workspace) continue;
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
