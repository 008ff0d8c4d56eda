/** Resource id prefixes; ids are prefix + ULID, so they sort by creation time. */
export const ID_PREFIX = {
  workspace: 'ws_',
  apiKey: 'key_',
  customer: 'cus_',
  tag: 'tag_',
  ticket: 'tkt_',
  article: 'kb_',
  cannedResponse: 'cr_',
  channel: 'ch_',
  conversation: 'conv_',
  message: 'msg_',
  webhookEndpoint: 'we_',
  event: 'evt_',
  delivery: 'whd_',
} as const;

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/** True when `id` is `prefix` followed by a well-formed ULID. */
export const isIdOf = (prefix: string, id: string): boolean => id.startsWith(prefix) && ULID.test(id.slice(prefix.length));
