import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type * as t from 'io-ts';
import { AnyEvent } from '@support/catalog';

/** docs/reference/events.md, from the event codecs themselves (@support/catalog's AnyEvent). */
export const EVENTS_DOC = path.resolve(__dirname, '../../../docs/reference/events.md');

/** The stream an event type's events are appended to, by its prefix (`customer.created`: customer-<id>). */
const streamOf = (type: string): string => {
  const kind = type.slice(0, type.indexOf('.'));
  const special: Record<string, string> = {
    sla: 'ticket-<id>',
    message: 'conversation-<id>',
    lead: 'customer-<id>',
    api_key: 'apikey-<id>',
    reservation: 'reservation-<kind>_<hash of the value>',
    ticket_number: 'ticket_number-<workspace id>',
  };
  if (type === 'agent.configured') return 'agent-<workspace id>';
  if (kind === 'agent') return 'conversation-<id>';
  return special[kind] ?? `${kind}-<id>`;
};

/** The catalogue as Markdown: every event type the platform records, its stream and its `data`. */
export const eventCatalogue = (): string => {
  const rows = (AnyEvent.types as unknown as t.InterfaceType<{ type: t.LiteralC<string>; data: t.Mixed }>[])
    .map((codec) => ({ type: codec.props.type.value, data: codec.props.data.name }))
    .sort((a, b) => a.type.localeCompare(b.type));
  return [
    '# Event catalogue',
    '',
    'Every event the platform records, as an auditor replays it (`admin events replay`, or a',
    'subscription to EventStoreDB). Generated from the io-ts codecs every write is checked',
    'against (`npm run docs:events`; `tests/src/docs/docs.test.ts` fails when this page differs).',
    '',
    'Each recorded event has `id` (a UUID), `type`, `data` (below), `stream` and `revision` (its',
    'place in the stream), `position` (its place in the whole log) and `metadata`: `workspace_id`,',
    '`actor` (the API key id, or `system` / `admin`), `request_id` (the `Request-Id` of the API',
    "request; for the admin CLI, its run's `admin_…` id; `null` for the platform's own work) and",
    '`occurred_at` (ISO 8601, UTC); a write made with an `Idempotency-Key` adds `idempotency_key` (a hash, never the key);',
    '`schema_version` is there once a type has a second version (absent: 1; see',
    '[upgrading](../operating/upgrading.md)).',
    'The webhook event types a receiver can subscribe to are a subset: see the',
    '[webhooks guide](../guides/webhooks.md).',
    '',
    `${rows.length} event types. \`data\` is written in TypeScript's notation: \`A | null\`, \`Partial<{…}>\` (any of the fields).`,
    '',
    '| type | stream | `data` |',
    '|---|---|---|',
    ...rows.map((r) => `| \`${r.type}\` | \`${streamOf(r.type)}\` | \`${r.data.replace(/\|/g, '\\|')}\` |`),
    '',
  ].join('\n');
};

if (require.main === module && process.argv.includes('--write')) {
  writeFileSync(EVENTS_DOC, eventCatalogue());
  process.stdout.write(`wrote ${EVENTS_DOC}\n`);
}
