import { aggregateId, Projection } from '@support/projections';
import type { Doc } from '@support/readstore';
import type { TagEvent } from './events';

export const TAGS = { name: 'tags', indexes: [['workspace_id', 'name_sort']] } as const;

/** A tag as the read model holds it. */
export interface TagDocument extends Doc {
  workspace_id: string;
  name: string;
  /** `name` in lower case: the list's order. */
  name_sort: string;
  color: string | null;
  is_active: boolean;
  created_at: string;
  updated_at: string;
}

/** `name_sort` keeps the list in the order people read names: case-insensitive. */
const sortKey = (name: string) => name.toLowerCase();

export const tagsProjection: Projection<TagDocument, TagEvent> = {
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
