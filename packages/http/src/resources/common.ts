import * as t from 'io-ts';
import { arrayOf, bool, jsonObject, int, literal, nullable, queryInt, str } from '../codec/primitives';
import { Described, JsonSchema } from '../codec/schema';
import { struct } from '../codec/struct';

/** Timestamps are ISO 8601 strings in UTC. */
export const timestamp = () => str({ format: 'date-time' });

/** Spec 2.1. `next_cursor` is the last item's id when `has_more`, else null. */
export const listOf = <C extends t.Mixed & Described>(item: C, title: string) =>
  struct({ object: literal('list'), data: arrayOf(item), has_more: bool(), next_cursor: nullable(str()) }, {}, { title: `${title}_list` });

export const listBody = <T extends { id: string }>(items: T[], hasMore: boolean) => ({
  object: 'list' as const,
  data: items,
  has_more: hasMore,
  next_cursor: hasMore && items.length ? items[items.length - 1].id : null,
});

/**
 * A response body that already is JSON text (rendered through a JsonView): sent as it is,
 * without a parse and re-serialization. Serializes as the value it holds, so a store that
 * keeps response bodies (idempotency) keeps the value.
 */
export class JsonText {
  constructor(readonly text: string) {}
  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

/** `listBody` of resources already rendered as JSON: the page spliced from their texts. */
export const listText = (items: readonly { id: string; json: string }[], hasMore: boolean): JsonText =>
  new JsonText(
    `{"object":"list","data":[${items.map((i) => i.json).join(',')}],"has_more":${hasMore},"next_cursor":${
      hasMore && items.length ? JSON.stringify(items[items.length - 1].id) : 'null'
    }}`,
  );

/** The answer of a DELETE; `exampleId`: an id of the kind. */
export const deletedOf = <O extends string>(object: O, exampleId: string) =>
  struct({ object: literal(object), id: str(), deleted: bool() }, {}, { title: `deleted_${object}`, example: { object, id: exampleId, deleted: true } });

export const envelopeSchema: JsonSchema = struct({
  success: bool(),
  error: struct(
    { message: str(), statusCode: int() },
    {
      code: str(),
      details: jsonObject(),
      documentation_url: str({ format: 'uri', description: "Where the reference page documents this error: the operation's answer with this status" }),
    },
  ),
}).jsonSchema;

/** Cursor parameters shared by every paginated list (spec 4.1); spread into a query struct. */
export const pageParams = {
  limit: queryInt({ min: 1, max: 100 }),
  // An id of the listed kind's form (prefix and ULID): a mistyped cursor is a 400, not the first
  // page again. An id that no longer exists still works (pages go by id order).
  starting_after: str({
    min: 1,
    max: 128,
    pattern: /^[a-z]+_[0-9A-HJKMNP-TV-Z]{26}$/,
    patternMessage: "must be an item id: the previous page's next_cursor",
    description: "The previous page's next_cursor (an item id)",
  }),
};
export const DEFAULT_LIMIT = 20;
