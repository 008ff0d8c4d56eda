import * as t from 'io-ts';
import { ID_PREFIX, input } from '@support/domain';

const { closed, exactly, isoTime, orNull, prefixedId, text, texts, whole } = input;

const maybeText = () => orNull(text({ blank: true }));

/**
 * A canned response as an import file gives it (spec 2.11); `name` and `content` are required.
 * `visibility`, `set_status` and `set_priority` are kept as given: the spec names no vocabulary.
 */
export const CannedResponseInput = closed(
  'canned_response',
  { name: text(), content: text() },
  {
    id: prefixedId(ID_PREFIX.cannedResponse),
    object: exactly('canned_response'),
    shortcut: maybeText(),
    visibility: text(),
    set_status: maybeText(),
    set_priority: maybeText(),
    add_tags: texts({ max: 100 }),
    usage_count: whole({ min: 0 }),
    created_at: isoTime(),
    updated_at: isoTime(),
  },
);
export type CannedResponseInput = t.TypeOf<typeof CannedResponseInput>;
