import {
  asksOfItsOwn,
  continuesSubject,
  followUpQuery,
  mayAskOfItsOwn,
  mayContinue,
  GroundedResponder,
  KnowledgeIndex,
  mentionedIn,
  offTopic,
  questionParts,
  leansOnPart,
  searchKnowledge,
  SemanticSearch,
  unannounced,
  unknownSubject,
  withoutInsults,
} from '@support/agent';
import { centresOf, type Half } from './eval-set';

/**
 * `node tests/build/eval/answers.js [--half=tuning] [--centre=NAME] [--question=ID] [--misses] [--unanswerable]`: the grounded
 * responder in process, on one half of tests/fixtures/eval (no service, no HTTP): retrieval as a
 * turn does it, then where each answerable question's facts are (the top passage, any relevant
 * one, the reply); `--misses` prints the replies without their facts, `--unanswerable` also asks
 * the near-but-unanswerable questions and prints those answered. For looking at the tuning
 * half's misses quickly; `npm run eval` is what reports.
 */
const main = async () => {
  const half = (process.argv.find((a) => a.startsWith('--half='))?.split('=')[1] ?? 'tuning') as Half;
  const semantic = await SemanticSearch.load();
  if (!semantic) throw new Error('no embedding model');
  const responder = new GroundedResponder();
  const fold = (s: string) =>
    s
      .normalize('NFKC')
      .toLowerCase()
      .replace(/[‐-―−]/g, '-');
  const tally = { answerable: 0, cited: 0, stated: 0, near: 0, nearDeclined: 0, inTop: 0, inTopArticleHits: 0, sources: 0, searched: 0, r1: 0, r5: 0 };
  const only = process.argv.find((a) => a.startsWith('--centre='))?.split('=')[1];
  const onlyQuestion = process.argv.find((a) => a.startsWith('--question='))?.split('=')[1];
  for (const centre of centresOf(half).filter((c) => !only || c.name === only)) {
    const index = new KnowledgeIndex();
    for (const a of centre.articles) index.upsert({ ...a, workspace_id: centre.name });
    const titles = new Map(centre.articles.map((a) => [a.id, a.title]));
    for (const q of centre.questions.filter((q) => !onlyQuestion || q.id === onlyQuestion)) {
      const near = q.kind === 'unanswerable_near' && process.argv.includes('--unanswerable');
      if (q.article_id === null && !near) continue;
      const last = q.turns[q.turns.length - 1];
      if (q.kind !== 'follow_up' && !near) {
        // As `npm run eval` measures search: POST /agent/search with the message, an operator's scope.
        const ids = [...new Set((await searchKnowledge(index, semantic, centre.name, last, 10)).map((h) => h.passage.articleId))];
        tally.searched += 1;
        tally.r1 += ids[0] === q.article_id ? 1 : 0;
        tally.r5 += ids.slice(0, 5).includes(q.article_id!) ? 1 : 0;
      }
      // As a turn does (KnowledgeFeed.customerHits): an off-topic message, a yes-or-no one on something no article names, or one on what no article announces, is answered from nothing.
      const publicPassages = () => index.passagesIn(centre.name, { customerFacing: true });
      const lookUp = async (asked: string) => {
        const text = index.spellChecked(centre.name, asked, { customerFacing: true });
        const found = await searchKnowledge(index, semantic, centre.name, text, 8, { customerFacing: true });
        const declined = (await offTopic(semantic, text, found)) || unknownSubject(text, mentionedIn(publicPassages)) || unannounced(text, publicPassages);
        return { found, declined };
      };
      // As a turn does: slips put right, a follow-up asked in the light of the messages before it.
      const own = index.spellChecked(centre.name, withoutInsults(last), { customerFacing: true });
      const earlier = q.turns.slice(0, -1).map(withoutInsults);
      let asked = followUpQuery(own, earlier);
      let looked = await lookUp(asked);
      // As a turn does: a follow-up in form only may ask of a subject of its own, and a short question may continue one.
      if (asked !== own && !looked.declined && mayAskOfItsOwn(own)) {
        const alone = await lookUp(own);
        if (!alone.declined && asksOfItsOwn(own, looked.found, alone.found)) [asked, looked] = [own, alone];
      } else if (asked === own && earlier.length > 0 && !looked.declined && looked.found.length > 0 && mayContinue(own)) {
        const withSubject = `${earlier[earlier.length - 1]}\n${own}`;
        const together = await lookUp(withSubject);
        if (!together.declined && continuesSubject(own, looked.found, together.found)) [asked, looked] = [withSubject, together];
      }
      const hits = looked.declined ? [] : looked.found;
      // As a turn does: each question of a message with two or three looked up on its own.
      const partsAsked = asked === own ? questionParts(own) : [];
      const parts =
        partsAsked.length > 1
          ? await Promise.all(
              partsAsked.map(async (part) => {
                const partFound = await searchKnowledge(index, semantic, centre.name, part.query, 8, { customerFacing: true });
                return {
                  message: part.text,
                  hits: (await offTopic(semantic, part.query, partFound)) ? [] : partFound,
                  leans: leansOnPart(part),
                  similarity: (texts: readonly string[]) => semantic.textSimilarities(part.text, texts),
                };
              }),
            )
          : undefined;
      const answer = await responder.answer({
        parts,
        settings: { tone: 'friendly', response_length: 'balanced', custom_instructions: null, name: 'Agent', model_tier: 'essential' } as never,
        message: asked,
        history: [],
        hits,
        similarity: (texts) => semantic.textSimilarities(asked, texts),
        passagesOf: (id) => index.passagesOf(centre.name, id),
        referredTo: (p) => index.referredTo(centre.name, p),
      });
      if (near) {
        tally.near += 1;
        tally.nearDeclined += answer.sources.length === 0 ? 1 : 0;
        if (answer.sources.length > 0)
          console.log(`${q.id} answered ${JSON.stringify(last)}\n  replied ${JSON.stringify(answer.messages.join(' | ').slice(0, 200))}`);
        continue;
      }
      const reply = fold([...answer.messages, ...answer.images, ...answer.buttons.map((b) => b.url)].join('\n'));
      const has = (text: string) => q.facts.every((f) => fold(text).includes(fold(f)));
      const cited = answer.sources.includes(titles.get(q.article_id!)!);
      const stated = has(reply);
      const top = hits[0]?.passage;
      tally.answerable += 1;
      tally.cited += cited ? 1 : 0;
      tally.stated += stated ? 1 : 0;
      tally.sources += answer.sources.length;
      tally.inTop += top && has(`${top.heading ?? ''}\n${top.text}`) ? 1 : 0;
      const articleHits = hits.filter((h) => h.passage.articleId === top?.articleId);
      tally.inTopArticleHits += has(articleHits.map((h) => `${h.passage.heading ?? ''}\n${h.passage.text}`).join('\n')) ? 1 : 0;
      if (!stated && process.argv.includes('--misses'))
        console.log(
          `${q.id} [${q.kind}]${cited ? ' (cited)' : ''} ${JSON.stringify(last)} wanted ${JSON.stringify(q.facts)}\n  replied ${JSON.stringify(answer.messages.join(' | ').slice(0, 300))}`,
        );
    }
  }
  console.log(JSON.stringify(tally));
  await semantic.close();
};

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
