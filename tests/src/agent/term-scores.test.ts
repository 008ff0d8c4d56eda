import fc from 'fast-check';
import MiniSearch from 'minisearch';
import t from 'tap';
import { ArticleForIndex, KnowledgeIndex, TermScoreCache, term, terms, tokenize } from '@support/agent';
import { checkProperty, expectSame, propertySeed } from '../support/property';

// BM25 scores taken term by term and kept until the index changes are exactly MiniSearch's OR
// query's, and the knowledge index never answers from scores of an earlier set of articles.

const seed = propertySeed();
t.comment(`fast-check seed ${seed} (replay with FC_SEED=${seed})`);

// Stems shared by several words, stop words, a lone letter and a number: every path of the analyzer.
const WORDS = ['refund', 'refunds', 'refunding', 'card', 'cards', 'the', 'how', 'a', 'hub', 'reset', 'price', '24', 'shipping', 'shipped', 'plan'];
const text = fc.array(fc.constantFrom(...WORDS), { maxLength: 8 }).map((w) => w.join(' '));
const sorted = (m: Map<string, number>) => [...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

t.test('any documents, any query, any options: the cached term scores are MiniSearch OR scores, before and after removals', async () => {
  const input = fc.record({
    docs: fc.array(fc.record({ title: text, heading: text, text }), { minLength: 1, maxLength: 12 }),
    queries: fc.array(text, { minLength: 1, maxLength: 5 }),
    removed: fc.array(fc.nat(), { maxLength: 4 }),
    prefix: fc.boolean(),
    fuzzy: fc.constantFrom(false as const, 0.2),
    boost: fc.record({ title: fc.constantFrom(1, 1.5, 3), heading: fc.constantFrom(0.5, 1), text: fc.constantFrom(1, 2) }),
  });
  await checkProperty(
    seed,
    fc.property(input, ({ docs, queries, removed, prefix, fuzzy, boost }) => {
      const ms = new MiniSearch<{ id: string; title: string; heading: string; text: string }>({
        fields: ['title', 'heading', 'text'],
        storeFields: [],
        tokenize: (s) => tokenize(s),
        processTerm: (s) => term(s),
        autoVacuum: false,
      });
      const indexed = docs.map((d, i) => ({ id: `d${i}`, ...d }));
      ms.addAll(indexed);
      const options = { combineWith: 'OR' as const, prefix, fuzzy, boost };
      const cache = new TermScoreCache(ms, options, (id) => Number(id.slice(1)));
      const check = (label: string) => {
        for (const q of queries) {
          const want = new Map(ms.search(q, options).map((r) => [r.id as string, r.score]));
          const out = new Float64Array(indexed.length).fill(-1);
          cache.scoresInto(terms(q), out);
          const got = new Map([...out].flatMap((score, i) => (score === 0 ? [] : [[`d${i}`, score] as const])));
          expectSame(sorted(got), sorted(want), `${label}, query ${JSON.stringify(q)}`);
        }
      };
      check('all indexed');
      check('asked again');
      for (const n of new Set(removed.map((r) => r % indexed.length))) ms.remove(indexed[n]);
      cache.clear();
      check('after removals');
    }),
    150,
  );
});

t.test('any articles indexed, changed and removed in any order: search answers as an index of only the current articles', async () => {
  const article = (n: number, body: string): ArticleForIndex => ({
    id: `kb_${n}`,
    workspace_id: 'ws',
    title: `Article ${n}`,
    content: body,
    status: 'published',
    ai_agent_enabled: true,
    type: 'public_article',
    is_public: true,
  });
  const step = fc.oneof(
    fc.record({ upsert: fc.nat({ max: 5 }), body: fc.array(text, { minLength: 1, maxLength: 3 }).map((p) => p.join('\n\n')) }),
    fc.record({ remove: fc.nat({ max: 5 }) }),
  );
  await checkProperty(
    seed,
    fc.property(fc.array(step, { minLength: 1, maxLength: 10 }), fc.array(text, { minLength: 1, maxLength: 4 }), (steps, queries) => {
      const index = new KnowledgeIndex();
      const current = new Map<number, string>();
      for (const s of steps) {
        if ('upsert' in s) {
          index.upsert(article(s.upsert, s.body));
          current.set(s.upsert, s.body);
        } else {
          index.remove('ws', `kb_${s.remove}`);
          current.delete(s.remove);
        }
        const fresh = new KnowledgeIndex();
        for (const [n, body] of current) fresh.upsert(article(n, body));
        for (const q of queries) {
          // Every passage matched (top 50 of at most 18), by id, to ten digits: MiniSearch's average
          // field lengths are running figures, so an index with a history differs in the last bit.
          const ranked = (i: KnowledgeIndex) =>
            i
              .search('ws', q, 50)
              .map((h) => [h.passage.id, Number(h.score.toPrecision(10))])
              .sort(([a], [b]) => (a < b ? -1 : 1));
          expectSame(ranked(index), ranked(fresh), `query ${JSON.stringify(q)} after ${JSON.stringify(s)}`);
          index.lexicalRows('ws', q);
        }
      }
    }),
    150,
  );
});
