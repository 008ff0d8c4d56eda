import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { Answer, AnswerSettings, GroundedResponder, KnowledgeIndex, LabelledQuestion, Question } from '@support/agent';

/** The grounded responder over the whole labelled fixture (tests/fixtures/knowledge), as the service indexes it. */
const BALANCED: AnswerSettings = { name: 'Aria', tone: 'friendly', response_length: 'balanced', custom_instructions: null, model_tier: 'essential' };
const responder = new GroundedResponder();
const ask = (q: Question): Promise<Answer> => responder.answer(q);

t.test('on the labelled fixture: readable, deterministic, mostly right, mostly silent off-topic', async (t) => {
  // Given the fixture knowledge base indexed as the service does, and its labelled questions
  const dir = path.resolve(__dirname, '../../fixtures/knowledge');
  const articles: {
    id: string;
    title: string;
    content: string;
    status?: 'draft' | 'published';
    ai_agent_enabled?: boolean;
    type?: 'public_article' | 'internal_article';
  }[] = JSON.parse(readFileSync(path.join(dir, 'articles.json'), 'utf8'));
  const questions: LabelledQuestion[] = JSON.parse(readFileSync(path.join(dir, 'questions.json'), 'utf8'));
  const index = new KnowledgeIndex();
  for (const a of articles)
    index.upsert({
      type: 'public_article',
      is_public: true,
      ...a,
      workspace_id: 'ws_fx',
      status: a.status ?? 'published',
      ai_agent_enabled: a.ai_agent_enabled ?? true,
    });
  const titles = new Map(articles.map((a) => [a.id, a.title]));

  // When each question is answered (balanced, the turn's 8 passages)
  let onTopic = 0,
    citedRight = 0,
    offTopic = 0,
    refused = 0;
  for (const q of questions) {
    const asked: Question = { settings: BALANCED, message: q.question, history: [], hits: index.search('ws_fx', q.question, 8) };
    const answer = await ask(asked);
    t.strictSame(await ask(asked), answer, `deterministic: ${q.question}`);
    // Then every answer is readable and shaped by the settings
    t.ok(answer.messages.length >= 1 && answer.messages.length <= 2, `1 or 2 bubbles: ${q.question}`);
    for (const m of answer.messages) {
      if (/[#*`]|\]\(|^\s|\s$/.test(m) || !/[.!?]$/.test(m)) t.fail(`unreadable bubble for "${q.question}": ${m}`);
    }
    t.equal(answer.grounded, answer.sources.length > 0, 'grounded exactly when something is cited');
    t.ok(
      answer.quick_replies.every((r) => !answer.sources.some((s) => r.includes(s))),
      'no quick reply for a cited article',
    );
    if (q.article_id === null) {
      offTopic += 1;
      if (!answer.grounded) refused += 1;
    } else {
      onTopic += 1;
      if (answer.sources.includes(titles.get(q.article_id) ?? '')) citedRight += 1;
    }
  }
  // And the labelled article is cited for most on-topic questions; most off-topic ones get "I don't know"
  t.ok(citedRight / onTopic >= 0.65, `right article cited for ${citedRight}/${onTopic} on-topic questions`);
  t.ok(refused / offTopic >= 0.5, `${refused}/${offTopic} off-topic questions answered with "I don't know"`);
});
