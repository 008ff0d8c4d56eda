import * as t from 'io-ts';
import { ArticleInput, CannedResponseInput, ChannelInput, input, TicketInput } from '@support/domain';

/**
 * An import file (operator interface): a JSON object with any of the four keys, each an array
 * of items shaped like the resource. Every problem is named by kind, item index and field.
 */
export const ImportFile = input.closed(
  'import file',
  {},
  {
    tickets: input.listOf(TicketInput),
    knowledge_base_articles: input.listOf(ArticleInput),
    canned_responses: input.listOf(CannedResponseInput),
    channels: input.listOf(ChannelInput),
  },
);
export type ImportFile = t.TypeOf<typeof ImportFile>;
