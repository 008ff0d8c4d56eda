import type { Centre, EvalQuestion } from './eval-set';

type Post = (path: string, body: unknown) => Promise<{ status: number; body: any }>;

/** What one question got through the HTTP API. */
export interface Outcome {
  question: EvalQuestion;
  /** The answering article's rank in POST /agent/search for the last turn (1-based), null when absent or not asked. */
  searchRank: number | null;
  sources: string[];
  reply: string;
  citedRight: boolean;
  statedFacts: boolean;
  /** Forbidden content (a staff-only, draft or AI-disabled string, or such an article's title) anywhere the customer sees. */
  leaked: string[];
}

/** Case and dash forms aside, as a reader compares. */
const fold = (s: string) =>
  s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[‐-―−]/g, '-');

/**
 * Asks every question of a centre as a customer would: each in a conversation of its own, its
 * earlier turns first, the last one measured; its last turn also through POST /agent/search.
 */
export const askCentre = async (post: Post, centre: Centre, onProgress?: (done: number, all: number) => void): Promise<Outcome[]> => {
  const titles = new Map(centre.articles.map((a) => [a.id, a.title]));
  const hidden = centre.articles
    .filter((a) => a.status !== 'published' || !a.ai_agent_enabled || a.type !== 'public_article' || !a.is_public)
    .map((a) => a.title);
  const outcomes: Outcome[] = [];
  for (const question of centre.questions) {
    const last = question.turns[question.turns.length - 1];
    let searchRank: number | null = null;
    if (question.article_id !== null) {
      const search = await post('/agent/search', { query: last, top_k: 10 });
      if (search.status !== 200) throw new Error(`POST /agent/search answered ${search.status}`);
      const ids = (search.body.data as { knowledge_base_id: string }[]).map((d) => d.knowledge_base_id);
      const at = [...new Set(ids)].indexOf(question.article_id);
      searchRank = at === -1 ? null : at + 1;
    }
    let conversation: string | undefined;
    let turn: any;
    for (const message of question.turns) {
      const r = await post('/agent/messages', { message, ...(conversation ? { conversation_id: conversation } : {}) });
      if (r.status !== 200) throw new Error(`POST /agent/messages answered ${r.status}: ${JSON.stringify(r.body)}`);
      turn = r.body;
      conversation = turn.conversation_id;
    }
    // What the customer is shown: the bubbles, and the pictures and links with them ("show me the diagram").
    const reply = [...(turn.messages as string[]), ...(turn.images as string[]), ...(turn.buttons as { url: string }[]).map((b) => b.url)].join('\n');
    const sources = turn.sources as string[];
    const seen = fold(JSON.stringify([turn.messages, turn.sources, turn.quick_replies, turn.buttons, turn.images]));
    const right = question.article_id ? titles.get(question.article_id)! : null;
    outcomes.push({
      question,
      searchRank,
      sources,
      reply,
      citedRight: right !== null && sources.includes(right),
      statedFacts: question.facts.every((f) => fold(reply).includes(fold(f))),
      leaked: [...(question.forbidden ?? []), ...hidden].filter((s) => seen.includes(fold(s))),
    });
    onProgress?.(outcomes.length, centre.questions.length);
  }
  return outcomes;
};

const share = (outcomes: Outcome[], pass: (o: Outcome) => boolean) => (outcomes.length ? outcomes.filter(pass).length / outcomes.length : NaN);

/** The figures of the agent issue's targets over a set of outcomes. */
export const figures = (outcomes: Outcome[]) => {
  const answerable = outcomes.filter((o) => o.question.article_id !== null);
  // Search is stateless: a follow-up's last turn alone is not a search query.
  const searched = answerable.filter((o) => o.question.kind !== 'follow_up');
  const declining = outcomes.filter((o) => o.question.article_id === null);
  return {
    questions: outcomes.length,
    search_recall_at_1: share(searched, (o) => o.searchRank === 1),
    search_recall_at_5: share(searched, (o) => o.searchRank !== null && o.searchRank <= 5),
    cites_right_article: share(answerable, (o) => o.citedRight),
    states_key_fact: share(answerable, (o) => o.statedFacts),
    follow_ups_right_article: share(
      answerable.filter((o) => o.question.kind === 'follow_up'),
      (o) => o.citedRight,
    ),
    non_english_right_article: share(
      answerable.filter((o) => o.question.kind === 'non_english'),
      (o) => o.citedRight,
    ),
    off_topic_and_small_talk_cite_nothing: share(
      outcomes.filter((o) => o.question.kind === 'off_topic' || o.question.kind === 'small_talk'),
      (o) => o.sources.length === 0,
    ),
    unanswerable_cite_nothing: share(declining, (o) => o.sources.length === 0),
    leaks: outcomes.filter((o) => o.leaked.length > 0).length,
  };
};
export type Figures = ReturnType<typeof figures>;
