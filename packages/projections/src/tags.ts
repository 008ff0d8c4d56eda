import { aggregateId, Projection } from './projection';

export const TAGS = { name: 'tags', indexes: [['workspace_id', 'name_sort']] } as const;

/** `name_sort` keeps the list in the order people read names: case-insensitive. */
const sortKey = (name: string) => name.toLowerCase();

export const tagsProjection: Projection = {
  collection: TAGS,
  handles: ['tag.created', 'tag.updated', 'tag.deleted'],
  targets: (e) => [aggregateId(e)],
  apply(doc, e) {
    const at = e.metadata.occurred_at;
    switch (e.type) {
      case 'tag.created':
        return { ...e.data, name_sort: sortKey(e.data.name), created_at: at, updated_at: at };
      case 'tag.updated': {
        if (!doc) return null;
        const { changes } = e.data;
        return { ...doc, ...changes, ...(changes.name !== undefined ? { name_sort: sortKey(changes.name) } : {}), updated_at: at };
      }
      case 'tag.deleted':
        return null;
      default:
        return doc;
    }
  },
};
