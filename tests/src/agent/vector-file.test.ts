import t from 'tap';
import { appendFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ArticleForIndex, EmbeddingModel, KnowledgeIndex, SemanticSearch, TextKind, VectorFile } from '@support/agent';

const dir = mkdtempSync(join(tmpdir(), 'vectors-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

const unit = (seed: number, d = 4) => {
  const v = Float32Array.from({ length: d }, (_, i) => Math.sin(seed + i));
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};

t.test('vectors survive a reopen; a record cut short by a crash is dropped; a wrong size is refused', async (t) => {
  const path = join(dir, 'a', 'm.vectors');
  const file = VectorFile.open(path, 4);
  const k1 = VectorFile.key('passage', 'Refunds take 5 days.');
  const k2 = VectorFile.key('passage', 'Shipping is free.');
  t.not(k1, VectorFile.key('query', 'Refunds take 5 days.'), 'the kind is part of the key');
  file.put(k1, unit(1));
  file.put(k2, unit(2));
  file.put(k1, unit(3)); // already there: kept as first written
  file.put(VectorFile.key('passage', 'x'), unit(4, 5)); // another model's size
  file.close();
  t.equal(statSync(path).size, 2 * (32 + 16));
  appendFileSync(path, Buffer.alloc(20, 7)); // a torn append
  const again = VectorFile.open(path, 4);
  t.equal(again.size, 2);
  t.strictSame([...again.get(k1)!], [...unit(1)]);
  t.strictSame([...again.get(k2)!], [...unit(2)]);
  t.equal(statSync(path).size, 2 * (32 + 16), 'the torn record is cut off');
  again.close();
});

/** A model that counts what it is asked to embed. */
class CountingModel implements EmbeddingModel {
  readonly name = 'counting';
  readonly dimensions = 4;
  readonly asked: string[] = [];
  embed(texts: readonly string[], kind: TextKind): Promise<Float32Array[]> {
    this.asked.push(...texts.map((x) => `${kind}:${x}`));
    return Promise.resolve(texts.map((x) => unit(x.length)));
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

t.test("a restart embeds no passage again: the help centre's vectors come from disk, customers' questions never go there", async (t) => {
  const path = join(dir, 'b', 'counting.vectors');
  const article: ArticleForIndex = {
    id: 'kb_1',
    workspace_id: 'ws_1',
    title: 'Refunds',
    content: 'Refunds take 5 days.\n\nShipping is free over $50.',
    status: 'published',
    ai_agent_enabled: true,
    type: 'public_article',
    is_public: true,
  };
  const run = async () => {
    const index = new KnowledgeIndex();
    index.upsert(article);
    const model = new CountingModel();
    const semantic = new SemanticSearch(model, VectorFile.open(path, 4));
    await semantic.search(index, 'ws_1', 'how long is a refund?', 5);
    await semantic.textSimilarities('how long is a refund?', ['Refunds take 5 days.']);
    await semantic.close();
    return model.asked;
  };
  const first = await run();
  t.ok(
    first.some((x) => x.startsWith('passage:')),
    'the first start embeds the passages',
  );
  t.strictSame(await run(), ['query:how long is a refund?'], 'the second embeds only the question');
});
