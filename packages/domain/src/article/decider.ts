import * as E from 'fp-ts/Either';
import { changedFields, Decider, fail } from '../decider';
import { ImportCommand, importedFields, ownedBy } from '../imported';
import { uniqueTags } from '../text';
import { ArticleChanges, ArticleEvent } from './events';
import { ArticleInput } from './input';

type Created = Extract<ArticleEvent, { type: 'knowledge_base_article.created' }>['data'];
export type ArticleState = { exists: false } | ({ exists: true } & Created);
export type ArticleCommand = ImportCommand<ArticleInput> | { type: 'mark_indexed'; indexed: boolean };

/** Knowledge base articles are read-only over the API: they arrive by import. */
export const articleDecider: Decider<ArticleCommand, ArticleEvent, ArticleState> = {
  initialState: { exists: false },
  decide(command, state) {
    if (command.type === 'mark_indexed') {
      if (!state.exists) return fail('not_found', 'article not found');
      return E.right(state.indexed === command.indexed ? [] : [{ type: 'knowledge_base_article.indexed', data: { id: state.id, indexed: command.indexed } }]);
    }
    const fields = importedFields(ArticleInput, command.input);
    if (E.isLeft(fields)) return fields;
    const given = fields.right;
    if (!state.exists) {
      const type = given.type ?? 'public_article';
      return E.right([
        {
          type: 'knowledge_base_article.created',
          data: {
            id: command.id,
            workspace_id: command.workspace_id,
            title: given.title,
            content: given.content,
            description: given.description ?? null,
            tags: uniqueTags(given.tags ?? []),
            category: given.category ?? null,
            status: given.status ?? 'published',
            type,
            is_public: given.is_public ?? type === 'public_article',
            ai_agent_enabled: given.ai_agent_enabled ?? true,
            indexed: given.indexed ?? false,
            created_at: given.created_at ?? command.at,
          },
        },
      ]);
    }
    const owned = ownedBy('knowledge_base_article', state, command.workspace_id);
    if (E.isLeft(owned)) return owned;
    const requested: ArticleChanges = { ...given, ...(given.tags !== undefined ? { tags: uniqueTags(given.tags) } : {}) };
    const changes = changedFields(state, requested as Partial<Created>) as ArticleChanges;
    return E.right(Object.keys(changes).length ? [{ type: 'knowledge_base_article.updated', data: { id: state.id, changes } }] : []);
  },
  evolve(state, event) {
    switch (event.type) {
      case 'knowledge_base_article.created':
        return { exists: true, ...event.data };
      case 'knowledge_base_article.updated':
        return state.exists ? { ...state, ...event.data.changes } : state;
      case 'knowledge_base_article.indexed':
        return state.exists ? { ...state, indexed: event.data.indexed } : state;
    }
  },
};
