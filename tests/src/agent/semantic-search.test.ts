import t from 'tap';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ArticleForIndex,
  defaultModelDir,
  E5Model,
  queryText,
  KnowledgeIndex,
  LabelledQuestion,
  missingModelFiles,
  retrievalQuality,
  searchKnowledge,
  SemanticSearch,
} from '@support/agent';
import { indexedArticle } from '../support/hits';

const FIXTURES = join(__dirname, '../../fixtures/knowledge');
const MODEL_DIR = defaultModelDir();
const MISSING = missingModelFiles(MODEL_DIR);
// In CI the model must be there (.ci/run fetches it): its tests fail rather than skip.
const NO_MODEL = MISSING.length > 0 && process.env.CI !== 'true' ? `no embedding model in ${MODEL_DIR} (run scripts/fetch-model.sh)` : false;

const article = indexedArticle;

const cosine = (x: Float32Array, y: Float32Array) => x.reduce((s, v, i) => s + v * y[i], 0);

t.test('without a model: load says why and returns null, search is BM25 alone', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'no-model-'));
  try {
    writeFileSync(join(dir, 'e5-small-q4.bin'), '');
    const lines: string[] = [];
    t.equal(await SemanticSearch.load(dir, (m) => lines.push(m)), null);
    t.equal(lines.length, 1);
    t.match(lines[0], /semantic search off: no model in .*missing e5-embed.*BM25 alone/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const index = new KnowledgeIndex();
  index.upsert(article('kb_1', 'Refunds', 'Refunds go back to the card.'));
  index.upsert(article('kb_2', 'Printer', 'Refill the paper.'));
  t.strictSame(await searchKnowledge(index, null, 'ws_r', 'refund card', 5), index.search('ws_r', 'refund card', 5));
});

t.test("a passage's closest sentence counts: the passage holding the sentence that answers ranks first", async (t) => {
  // Given a model (made up, three dimensions) by which the first article as a whole is closer to
  // the question than the second, while one sentence of the second is the closest of all
  const unit = (x: number) => Float32Array.from([x, Math.sqrt(1 - x * x), 0]);
  const model = {
    name: 'made-up',
    dimensions: 3,
    embed: async (texts: readonly string[], kind: 'query' | 'passage') =>
      texts.map((text) => {
        if (kind === 'query') return Float32Array.from([1, 0, 0]);
        const sentence = text.includes(': '); // a sentence is compared after its heading or title (sentences.ts)
        if (sentence) return unit(text.includes('Beta exact') ? 0.99 : 0.5);
        return unit(text.startsWith('Alpha') ? 0.9 : 0.85);
      }),
    close: async () => undefined,
  };
  const index = new KnowledgeIndex();
  index.upsert(article('kb_a', 'Alpha', 'Alpha one. Alpha two.'));
  index.upsert(article('kb_b', 'Beta', 'Beta one. Beta exact.'));
  const semantic = new SemanticSearch(model);
  // When a question is searched
  const hits = await semantic.search(index, 'ws_r', 'where?', 2);
  // Then the second article ranks first, by 0.85 + 0.35 × 0.99 against 0.9 + 0.35 × 0.5, each similarity its passage's own
  t.strictSame(
    hits.map((h) => [h.passage.articleId, Number(h.similarity!.toFixed(2)), Number(h.score.toFixed(4))]),
    [
      ['kb_b', 0.85, 1.1965],
      ['kb_a', 0.9, 1.075],
    ],
  );
});

t.test("a list's closest text: the list is embedded once, each question after it only itself", async (t) => {
  // Given a model (made up, eight dimensions) that puts a text on the axis of the first fruit it names, counting what it embeds
  const FRUITS = ['apple', 'pear', 'plum', 'fig', 'kiwi', 'lime', 'date', 'yuzu'];
  const embedded: string[] = [];
  const model = {
    name: 'made-up',
    dimensions: 8,
    embed: async (texts: readonly string[]) =>
      texts.map((text) => {
        embedded.push(text);
        const v = new Float32Array(8);
        v[FRUITS.findIndex((f) => text.includes(f))] = 1;
        return v;
      }),
    close: async () => undefined,
  };
  const semantic = new SemanticSearch(model);
  const LIST = ['an apple', 'a plum', 'a fig'];
  // Then the closest is 1 for a fruit on the list, 0 for one off it
  t.strictSame([await semantic.closestInList('plum?', LIST), await semantic.closestInList('kiwi?', LIST)], [1, 0]);
  t.strictSame(await semantic.closestInList('fig?', LIST), Math.max(...(await semantic.textSimilarities('fig?', LIST))));
  // And the list was embedded once, the questions one each
  t.strictSame(embedded, ['plum?', 'an apple', 'a plum', 'a fig', 'kiwi?', 'fig?']);
});

t.test('search sees every change to the index: an article added, changed or removed after a search', async (t) => {
  // Given a model (made up, eight dimensions: the SIMD path) that puts a text on the axis of
  // the first fruit it names, and a search already made (the workspace's passages are kept as
  // one matrix between searches)
  const FRUITS = ['apple', 'pear', 'plum', 'fig', 'kiwi', 'lime', 'date', 'yuzu'];
  const model = {
    name: 'made-up',
    dimensions: 8,
    embed: async (texts: readonly string[]) =>
      texts.map((text) => {
        const v = new Float32Array(8);
        const i = FRUITS.findIndex((f) => text.toLowerCase().includes(f));
        v[i >= 0 ? i : 7] = 1;
        return v;
      }),
    close: async () => undefined,
  };
  const index = new KnowledgeIndex();
  const semantic = new SemanticSearch(model);
  const top = async (query: string) => (await semantic.search(index, 'ws_r', query, 1))[0]?.passage.articleId ?? null;
  index.upsert(article('kb_1', 'Orchard', 'All about the apple.'));
  t.equal(await top('apple?'), 'kb_1');
  t.equal(await top('pear?'), null);
  // When articles are added, changed and removed, the next search sees each change
  index.upsert(article('kb_2', 'Grove', 'All about the pear.'));
  t.equal(await top('pear?'), 'kb_2');
  index.upsert(article('kb_2', 'Grove', 'All about the plum.'));
  t.equal(await top('pear?'), null);
  t.equal(await top('plum?'), 'kb_2');
  index.remove('ws_r', 'kb_1');
  t.equal(await top('apple?'), null);
  // Even a workspace emptied and filled again with as many changes since it began
  const inOther = async (query: string) => (await semantic.search(index, 'ws_e', query, 1))[0]?.passage.articleId ?? null;
  index.upsert(article('kb_e1', 'Orchard', 'All about the apple.', { workspace_id: 'ws_e' }));
  t.equal(await inOther('apple?'), 'kb_e1');
  index.remove('ws_e', 'kb_e1');
  index.upsert(article('kb_e2', 'Vines', 'All about the fig.', { workspace_id: 'ws_e' }));
  t.equal(await inOther('fig?'), 'kb_e2');
  t.equal(await inOther('apple?'), null);
});

t.test('a model binary that does not run: load says why', { skip: NO_MODEL }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'bad-model-'));
  try {
    writeFileSync(join(dir, 'e5-small-q4.bin'), 'not a model');
    writeFileSync(join(dir, 'e5-embed'), readFileSync(join(MODEL_DIR, 'e5-embed')), { mode: 0o755 });
    const loaded = await E5Model.load(dir);
    t.type(loaded, 'string');
    t.match(loaded, /failed to run \(e5-embed exited/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

t.test('with the model', { skip: NO_MODEL }, async (t) => {
  const lines: string[] = [];
  const semantic = await SemanticSearch.load(MODEL_DIR, (m) => lines.push(m));
  if (semantic === null) {
    t.fail(`the model is there but did not load: ${lines.join(' | ')}`);
    return;
  }
  t.teardown(() => semantic.close());
  t.match(lines, [/semantic search on: multilingual-e5-small \(384 dimensions\)/]);
  t.equal(semantic.model.dimensions, 384);

  t.test('embeddings: unit length, cached, meaning-aware across languages', async (t) => {
    const [a, es, de] = await semantic.embed(['How do I get my money back?', '¿Cómo recupero mi dinero?', 'Wie bekomme ich mein Geld zurück?'], 'query');
    const [refund, printer] = await semantic.embed(['Refunds are returned to your card within 5 days.', 'The printer needs thermal paper.'], 'passage');
    t.equal(a.length, 384);
    const norm = Math.sqrt(a.reduce((s, x) => s + x * x, 0));
    t.ok(Math.abs(norm - 1) < 1e-3, `norm ${norm}`);
    const [again] = await semantic.embed(['How do I get my money back?'], 'query');
    t.equal(again, a, 'same cached vector');
    for (const [name, q] of [
      ['en', a],
      ['es', es],
      ['de', de],
    ] as const) {
      t.ok(cosine(q, refund) > cosine(q, printer) + 0.05, `${name}: refund ${cosine(q, refund).toFixed(3)} vs printer ${cosine(q, printer).toFixed(3)}`);
    }
  });

  t.test('many texts at once are batched, and each gets the vector it gets alone', async (t) => {
    const texts = Array.from({ length: 70 }, (_, i) => `Question number ${i}: how do I export invoice ${i}?`);
    const together = await Promise.all(texts.map((text) => semantic.model.embed([text], 'query')));
    const alone = await semantic.model.embed([texts[41]], 'query');
    t.ok(cosine(together[41][0], alone[0]) > 0.9999, 'same vector in a batch and alone');
    t.ok(cosine(together[3][0], together[41][0]) < 0.9999, 'different texts, different vectors');
  });

  t.test('a long message is embedded by its start and end, and never holds up the short questions behind it', async (t) => {
    const model = await E5Model.load(MODEL_DIR);
    if (typeof model === 'string') throw new Error(model);
    t.teardown(() => model.close());
    const words = (n: number, seed: number) => Array.from({ length: n }, (_, i) => `word${(i * 7919 + seed) % 1000}`).join(' ');
    // The batches the model process is sent, by the length of each text
    const internals = model as unknown as { call(texts: string[], kind: string): Promise<Float32Array[]> };
    const call = internals.call.bind(model);
    const batches: number[][] = [];
    internals.call = (texts, kind) => {
      batches.push(texts.map((text) => text.length));
      return call(texts, kind);
    };
    // Given a dozen messages of 10,000 characters from one workspace, then a short question from another
    const long = Array.from({ length: 12 }, (_, i) => model.embed([words(1200, i).slice(0, 10_000)], 'query'));
    const short = model.embed(['How do I return an item?'], 'query');
    await Promise.all([...long, short]);
    // Then the short question goes in the batch after the one under way, alone, and the long ones two at a time
    t.strictSame(batches, [[1003], [24], [1003, 1003], [1003, 1003], [1003, 1003], [1003, 1003], [1003, 1003], [1003]]);
    // And a long message is embedded as its first and last 500 characters
    t.equal(queryText('a'.repeat(400) + 'b'.repeat(9_200) + 'c'.repeat(400)), `${'a'.repeat(400)}${'b'.repeat(100)} … ${'b'.repeat(100)}${'c'.repeat(400)}`);
    t.equal(queryText('short'), 'short');
  });

  t.test('the model process dies: the call under way fails, the next one starts it again', async (t) => {
    const ended: string[] = [];
    const model = await E5Model.load(MODEL_DIR, (why) => ended.push(why));
    if (typeof model === 'string') throw new Error(model);
    t.teardown(() => model.close());
    const child = (model as unknown as { child: { kill(s: string): void; once(e: string, f: () => void): void } }).child;
    const exited = new Promise<void>((resolve) => child.once('exit', resolve));
    const during = model.embed(['a question asked while the model dies'], 'query');
    child.kill('SIGKILL');
    await t.rejects(during, /e5-embed exited \(SIGKILL\)/);
    await exited;
    t.strictSame(ended, ['e5-embed exited (SIGKILL)'], 'the crash is reported once');
    const [v] = await model.embed(['asked after'], 'query');
    t.equal(v.length, 384);
    const pending = t.rejects(model.embed(['asked while closing'], 'query'), /embedding model closed/, 'close fails what it leaves unanswered');
    await model.close();
    await pending;
    t.strictSame(ended, ['e5-embed exited (SIGKILL)'], 'a close is not a crash');
  });

  t.test('search: every passage in scope scored by meaning, similarity set, deterministic', async (t) => {
    const index = new KnowledgeIndex();
    // BM25 prefers the fees passage (it shares "card" and "machine"); the pairing passage answers the question.
    index.upsert(article('kb_fees', 'Fees', 'Every card payment taken on the card machine has a processing fee.'));
    index.upsert(article('kb_pair', 'Bluetooth pairing', 'If the reader does not connect to the tablet, turn Bluetooth off and on and pair it again.'));
    index.upsert(article('kb_staff', 'Staff notes', 'Reader pairing override for the support team: hold the button 30 seconds.', { type: 'internal_article' }));
    const Q = 'my card machine will not connect to my iPad';
    t.strictSame(
      index.search('ws_r', Q, 10, { customerFacing: true }).map((h) => h.passage.articleId),
      ['kb_fees', 'kb_pair'],
      'BM25 order',
    );
    const hits = await semantic.search(index, 'ws_r', Q, 10, { customerFacing: true });
    t.strictSame(
      hits.map((h) => h.passage.articleId),
      ['kb_pair', 'kb_fees'],
      'hybrid order; the internal article is out of scope',
    );
    for (const h of hits) t.type(h.similarity, 'number');
    t.strictSame(await semantic.search(index, 'ws_r', Q, 10, { customerFacing: true }), hits);
    const override = 'reader pairing override';
    t.ok(
      (await semantic.search(index, 'ws_r', override, 10)).some((h) => h.passage.articleId === 'kb_staff'),
      "operators' search sees internal articles",
    );
    t.notOk(
      (await semantic.search(index, 'ws_r', override, 10, { customerFacing: true })).some((h) => h.passage.articleId === 'kb_staff'),
      "a customer's does not",
    );
    t.strictSame(await semantic.search(index, 'ws_other', Q, 10), [], 'another workspace: nothing');
    t.strictSame(
      (await searchKnowledge(index, semantic, 'ws_r', Q, 1, { customerFacing: true })).map((h) => h.passage.id),
      ['kb_pair#0'],
    );
    // A question in Spanish shares no word with the article: meaning finds it.
    const es = await semantic.search(index, 'ws_r', 'mi lector de tarjetas no se conecta a la tableta', 1, { customerFacing: true });
    t.strictSame(
      es.map((h) => h.passage.articleId),
      ['kb_pair'],
    );
  });

  t.test('retrieval quality over the fixture, BM25 alone and hybrid', async (t) => {
    const articles = JSON.parse(readFileSync(join(FIXTURES, 'articles.json'), 'utf8')) as (ArticleForIndex & { workspace_id?: string })[];
    const questions = JSON.parse(readFileSync(join(FIXTURES, 'questions.json'), 'utf8')) as LabelledQuestion[];
    const index = new KnowledgeIndex();
    for (const a of articles) index.upsert({ ...a, workspace_id: 'ws_fixture' });
    const ids = (hits: { passage: { articleId: string } }[]) => ({ articleIds: hits.map((h) => h.passage.articleId) });
    const bm25 = await retrievalQuality(questions, async (q) => ids(index.search('ws_fixture', q, 8)));
    const hybrid = await retrievalQuality(questions, async (q) => ids(await semantic.search(index, 'ws_fixture', q, 8)));
    const fmt = (q: typeof bm25) => `recall@1 ${q.recall_at_1.toFixed(3)} recall@5 ${q.recall_at_5.toFixed(3)} MRR ${q.mrr.toFixed(3)}`;
    t.comment(`BM25 alone: ${fmt(bm25)}`);
    t.comment(`hybrid:     ${fmt(hybrid)}`);
    t.ok(hybrid.mrr > bm25.mrr, 'hybrid beats BM25 alone');
  });
});
