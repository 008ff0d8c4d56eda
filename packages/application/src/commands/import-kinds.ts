import {
  ArticleCommand,
  articleDecider,
  ArticleEvent,
  ArticleInput,
  ArticleState,
  CannedResponseCommand,
  cannedResponseDecider,
  CannedResponseEvent,
  CannedResponseInput,
  CannedResponseState,
  ChannelCommand,
  channelDecider,
  ChannelEvent,
  ChannelInput,
  ChannelState,
  DomainEvent,
  ID_PREFIX,
  ImportCommand,
  TicketCommand,
  ticketDecider,
  TicketEvent,
  TicketInput,
  TicketState,
} from '@support/domain';
import { Aggregate } from './execute';

export const ticketStream = (id: string) => `ticket-${id}`;
export const articleStream = (id: string) => `knowledge_base_article-${id}`;
export const cannedResponseStream = (id: string) => `canned_response-${id}`;
export const channelStream = (id: string) => `channel-${id}`;

export const ticketAggregate: Aggregate<TicketCommand, TicketEvent, TicketState> = { decider: ticketDecider, codec: TicketEvent };
export const articleAggregate: Aggregate<ArticleCommand, ArticleEvent, ArticleState> = { decider: articleDecider, codec: ArticleEvent };
export const cannedResponseAggregate: Aggregate<CannedResponseCommand, CannedResponseEvent, CannedResponseState> = {
  decider: cannedResponseDecider,
  codec: CannedResponseEvent,
};
export const channelAggregate: Aggregate<ChannelCommand, ChannelEvent, ChannelState> = { decider: channelDecider, codec: ChannelEvent };

/** The keys of an import file (operator interface), one per kind of read-only resource. */
export const IMPORT_KINDS = ['tickets', 'knowledge_base_articles', 'canned_responses', 'channels'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

/** How one kind of record is imported: its stream, its decider, and its command. */
export interface ImportKindSpec<I, C, Ev extends DomainEvent, S> {
  key: ImportKind;
  prefix: string;
  aggregate: Aggregate<C, Ev, S>;
  stream(id: string): string;
  /** The workspace of the record the stream holds, or null when it holds none. */
  owner(state: S): string | null;
  /** `numbers`: ticket numbers allocated for this import, by ticket id. */
  command(base: ImportCommand<I>, numbers: ReadonlyMap<string, number>): C;
}

const ownerOf = (s: { exists: false } | { exists: true; workspace_id: string }) => (s.exists ? s.workspace_id : null);

export const TICKET_IMPORT: ImportKindSpec<TicketInput, TicketCommand, TicketEvent, TicketState> = {
  key: 'tickets',
  prefix: ID_PREFIX.ticket,
  aggregate: ticketAggregate,
  stream: ticketStream,
  owner: ownerOf,
  command: (base, numbers) => ({ ...base, next_number: numbers.get(base.id) ?? null }),
};
export const ARTICLE_IMPORT: ImportKindSpec<ArticleInput, ArticleCommand, ArticleEvent, ArticleState> = {
  key: 'knowledge_base_articles',
  prefix: ID_PREFIX.article,
  aggregate: articleAggregate,
  stream: articleStream,
  owner: ownerOf,
  command: (base) => base,
};
export const CANNED_RESPONSE_IMPORT: ImportKindSpec<CannedResponseInput, CannedResponseCommand, CannedResponseEvent, CannedResponseState> = {
  key: 'canned_responses',
  prefix: ID_PREFIX.cannedResponse,
  aggregate: cannedResponseAggregate,
  stream: cannedResponseStream,
  owner: ownerOf,
  command: (base) => base,
};
export const CHANNEL_IMPORT: ImportKindSpec<ChannelInput, ChannelCommand, ChannelEvent, ChannelState> = {
  key: 'channels',
  prefix: ID_PREFIX.channel,
  aggregate: channelAggregate,
  stream: channelStream,
  owner: ownerOf,
  command: (base) => base,
};
