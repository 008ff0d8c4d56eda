import * as E from 'fp-ts/Either';
import { Decider, fail, ImportCommand, importedRecordDecider, ImportedState, uniqueTags } from '@support/domain';
import { ArticleChanges, ArticleEvent } from './events';
import { ArticleInput } from './input';

type Created = Extract<ArticleEvent, { type: 'knowledge_base_article.created' }>['data'];
export type ArticleState = ImportedState<Created>;
export type ArticleCommand = ImportCommand<ArticleInput> | { type: 'mark_indexed'; indexed: boolean };

const imported = importedRecordDecider({
  kind: 'knowledge_base_article',
  input: ArticleInput,
  created: (given, command): Created => {
    const type = given.type ?? 'public_article';
    return {
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
    };
  },
  changes: (given): ArticleChanges => ({ ...given, ...(given.tags !== undefined ? { tags: uniqueTags(given.tags) } : {}) }),
});

/** Knowledge base articles are read-only over the API: they arrive by import; the agent's index marks them indexed. */
export const articleDecider: Decider<ArticleCommand, ArticleEvent, ArticleState> = {
  initialState: imported.initialState,
  decide(command, state) {
    if (command.type !== 'mark_indexed') return imported.decide(command, state);
    if (!state.exists) return fail('not_found', 'article not found');
    return E.right(state.indexed === command.indexed ? [] : [{ type: 'knowledge_base_article.indexed', data: { id: state.id, indexed: command.indexed } }]);
  },
  evolve(state, event) {
    if (event.type !== 'knowledge_base_article.indexed') return imported.evolve(state, event);
    return state.exists ? { ...state, indexed: event.data.indexed } : state;
  },
};
