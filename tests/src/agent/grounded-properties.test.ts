import fc from 'fast-check';
import t from 'tap';
import { AnswerSettings, GroundedResponder, Passage, SearchHit } from '@support/agent';
import { hit } from '../support/hits';
import { checkProperty, propertySeed } from '../support/property';

// The grounded responder's promises on any articles and any question, with and without the
// embedding model's scores: it invents nothing, keeps within the bubbles allowed, shows each
// passage's sentences in the article's order, never says a sentence twice, and names as sources
// exactly the articles it quoted.

const seed = propertySeed();
t.comment(`fast-check seed ${seed} (replay with FC_SEED=${seed})`);

const WORDS = ['refund', 'card', 'plan', 'price', 'hub', 'reset', 'shipping', 'days', 'invoice', 'password'];
const BUBBLES = { concise: 1, balanced: 2, detailed: 4 } as const;

/** Sentences tagged `sN`, so each one said can be traced to its passage. */
const article = fc.array(fc.array(fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 6 }), {
  minLength: 1,
  maxLength: 3,
});
const input = fc.record({
  articles: fc.array(article, { minLength: 1, maxLength: 3 }),
  question: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }),
  length: fc.constantFrom('concise', 'balanced', 'detailed' as const),
  model: fc.option(fc.array(fc.double({ min: 0.7, max: 0.95, noNaN: true }), { minLength: 60, maxLength: 60 }), { nil: undefined }),
  found: fc.array(fc.boolean(), { minLength: 9, maxLength: 9 }),
});

t.test('any articles, any question: grounded, within its bubbles, in order, each sentence once, sources exact', async () => {
  const responder = new GroundedResponder();
  await checkProperty(
    seed,
    fc.asyncProperty(input, async ({ articles, question, length, model, found }) => {
      let n = 0;
      const home = new Map<string, Passage>();
      const all: SearchHit[] = articles.flatMap((passages, a) =>
        passages.map((sentences, p) => {
          const text = sentences.map((words) => `${words.join(' ')} s${n++}.`).join(' ');
          const h = hit(`art_${a}`, p, `Article ${a}`, p === 0 ? null : `Part ${p}`, text, 10 - a - p / 10);
          for (const m of text.matchAll(/s\d+/g)) home.set(m[0], h.passage);
          return model ? { ...h, similarity: model[n % model.length] } : h;
        }),
      );
      // Search found some of the passages, best first.
      const hits = all.filter((_, i) => found[i % found.length]).sort((x, y) => (y.similarity ?? y.score) - (x.similarity ?? x.score));
      const settings: AnswerSettings = { name: 'Aria', tone: 'friendly', response_length: length, custom_instructions: null, model_tier: 'essential' };
      const answer = await responder.answer({
        settings,
        history: [],
        message: `How does ${question.join(' ')} work?`,
        hits,
        similarity: model ? async (texts) => texts.map((s, i) => model[(s.length + i) % model.length]) : undefined,
        passagesOf: (id) => all.filter((h) => h.passage.articleId === id).map((h) => h.passage),
      });
      if (!answer.grounded) {
        if (answer.sources.length !== 0 || answer.messages.length !== 1)
          throw new Error(`an "I don't know" with sources or bubbles: ${JSON.stringify(answer)}`);
        return;
      }
      if (answer.messages.length < 1 || answer.messages.length > BUBBLES[length]) throw new Error(`${answer.messages.length} bubbles for ${length}`);
      const said: string[] = [];
      const quoted: string[] = [];
      for (const bubble of answer.messages) {
        const tags = [...bubble.matchAll(/s\d+/g)].map((m) => m[0]);
        if (tags.length === 0) throw new Error(`a bubble quoting nothing: ${bubble}`);
        const passages = new Set(tags.map((tag) => home.get(tag)));
        if (passages.has(undefined)) throw new Error(`a sentence no article holds: ${bubble}`);
        if (passages.size !== 1) throw new Error(`a bubble mixing passages: ${bubble}`);
        const order = tags.map((tag) => Number(tag.slice(1)));
        if (order.some((v, i) => i > 0 && v <= order[i - 1])) throw new Error(`sentences out of the article's order: ${bubble}`);
        said.push(...tags);
        quoted.push(...tags.map((tag) => home.get(tag)!.title));
      }
      if (new Set(said).size !== said.length) throw new Error(`a sentence said twice: ${JSON.stringify(answer.messages)}`);
      const sources = [...new Set(quoted)];
      if (JSON.stringify(answer.sources) !== JSON.stringify(sources))
        throw new Error(`sources ${JSON.stringify(answer.sources)}, quoted ${JSON.stringify(sources)}`);
    }),
    300,
  );
});
