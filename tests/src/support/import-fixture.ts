import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { admin, adminJson, replayEvents } from './service';
import { until } from './wait';
import type { Tenant } from './workspace';

// The read-only resources' import file (spec 4.7) and the CLI calls around it, shared by
// e2e/import.test.ts (what the import writes) and e2e/readonly.test.ts (how it is served).

export const SECRET = 'tok_live_very_secret_42';
export const SMTP_SECRET = 'smtp-password-do-not-leak';
export const GIVEN = {
  ticket: 'tkt_01J00000000000000000000001',
  article: 'kb_01J00000000000000000000001',
  canned: 'cr_01J00000000000000000000001',
  channel: 'ch_01J00000000000000000000001',
};

export const FILE = {
  tickets: [
    {
      id: GIVEN.ticket,
      number: 500,
      subject: 'VPN drops every hour',
      description: 'Since Monday',
      status: 'pending',
      priority: 'high',
      type: 'incident',
      tags: ['network', ' network', 'vpn'],
      customer_id: 'cus_alpha',
      assignee_id: 'agent_1',
      team_id: 'team_it',
      source_conversation_id: 'conv_x',
      sla_resolution_due_at: '2025-06-03T08:00:00+02:00',
      created_at: '2025-06-01T08:00:00Z',
    },
    { subject: 'Invoice copy', customer_id: 'cus_beta' },
    { subject: 'Migrate mailbox', status: 'on_hold', priority: 'urgent', type: 'task', assignee_id: 'agent_2' },
  ],
  knowledge_base_articles: [
    {
      id: GIVEN.article,
      title: 'Reset your password',
      content: 'Use the link on the sign-in page.',
      tags: ['accounts'],
      category: 'Accounts',
      created_at: '2024-01-01T00:00:00Z',
    },
    { title: 'Escalation playbook', content: 'Call the on-call.', status: 'draft', type: 'internal_article' },
  ],
  canned_responses: [
    { name: 'Greeting', content: 'Hello, how can I help?' },
    { id: GIVEN.canned, name: 'Goodbye', content: 'Have a nice day.', shortcut: '/bye', add_tags: ['closing'], usage_count: 12 },
  ],
  channels: [
    { type: 'widget', name: 'Website chat', config: { token: SECRET } },
    {
      id: GIVEN.channel,
      type: 'email',
      name: 'Support inbox',
      status: 'connected',
      last_connected_at: '2025-05-01T00:00:00Z',
      config: { smtp_password: SMTP_SECRET },
    },
  ],
};

export type Report = Record<string, { count: number; ids: string[] }>;

/** The admin CLI's `import` and `events replay` on the service's data directory. */
export const importer = (dir: string) => {
  let files = 0;
  const fileWith = (content: unknown): string => {
    const path = join(dir, `import-${++files}.json`);
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
  };
  return {
    importRaw: (workspaceId: string, content: unknown) => admin(dir, 'import', '--workspace', workspaceId, '--file', fileWith(content), '--json'),
    importJson: (workspaceId: string, content: unknown) => adminJson<Report>(dir, 'import', '--workspace', workspaceId, '--file', fileWith(content)),
    events: (workspaceId: string) => replayEvents(dir, '--workspace', workspaceId),
  };
};

/** The CLI wrote events; the running service shows them once its projector has passed them. */
export const visible = (tenant: Tenant, path: string, check: (body: any) => boolean = () => true) =>
  until(
    async () => {
      const r = await tenant.api.get(path);
      return r.status === 200 && check(r.body);
    },
    10_000,
    50,
  );

export const ids = (body: { data: { id: string }[] }) => body.data.map((d) => d.id);
