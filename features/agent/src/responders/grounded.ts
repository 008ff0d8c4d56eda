import { terms } from '../knowledge/text';
import type { SearchHit } from '../knowledge/types';
import { ANSWER_LIMITS, distinctBy } from './answer';
import { extractLinks } from './markdown';
import { extremeEntries, holdsKind, kindsAsked } from './answer-type';
import { judgeHits, relevantHits } from './relevance';
import { inContext, type Unit, unitsOf } from '../knowledge/sentences';
import type { Answer, Question, Responder } from './types';
import { asksItself, BUBBLES, chunk, type Chunk, CONTINUES, interleave, leadOf, PRONOUN_SUBJECT } from './bubbles';
import { quickReplyFor, withoutGreeting, wordingOf } from './wording';
import { inSubject } from '../rules/question-parts';
import { candidates, REFERRED } from './candidates';
import { refersTo } from '../knowledge/cross-references';

/**
 * The default responder: offline, deterministic (no randomness, no clock, no I/O) and grounded.
 *
 * It answers only from relevant passages (relevance.ts), best first, and the other passages of
 * the best one's article (a price under its own heading that search ranked lower):
 * - each passage is cut into sentences (a sentence ending in `:` keeps the list it introduces);
 *   with the embedding model, a sentence's score is its similarity to the question (read after
 *   its section's heading), plus a little for the question's words it shares and for holding
 *   the kind of answer asked for (answer-type.ts: an amount for "how much", a duration for "how
 *   long"; a sentence opening with a pronoun shares the words of the one before it, or of the
 *   title), and the sentences within UNIT_MARGIN of the best are the "matching" ones; without
 *   it, the sentences sharing question terms are (when none does, the passage matched by its
 *   title or heading and its first sentence stands in);
 * - sentences are picked while they fit in the bubbles `response_length` allows (1 concise, 2
 *   balanced, 4 detailed; a bubble holds one passage's sentences, up to four while it stays short,
 *   in the article's order): each relevant passage's matching sentences in rank order, best first
 *   (one opening with "Then…" or "It…", or answering a question the article asks, with the one
 *   before it, even in the paragraph before; a question the article asks only with its answer);
 *   then, to fill two bubbles or more, the best article's other sentences in text order, never
 *   another article's. Right after the best passage's come the sentences of an article it sends
 *   its reader to ("see Returning your equipment"), when a sentence naming it answers and they
 *   answer as closely as another article's must. Duplicates are dropped; `tone` adds a greeting and a closing;
 * - `sources`: titles of the articles whose passages gave a bubble (distinct, in bubble order);
 *   `buttons` and `images`: links and images in those passages only;
 * - `quick_replies`: up to 3 related articles not cited, in rank order, as questions;
 * - a message of two or three questions (`parts`): each part's bubbles chosen on its own, in its
 *   share of the bubbles, and taken in turn (bubbles.ts, `interleave`); a part leaning on the one
 *   before, from the article that one was answered from when it speaks of it (`inSubject`).
 * With nothing relevant it invents nothing: one polite "I don't know" bubble in the tone,
 * `grounded: false`, no sources (the caller may escalate instead).
 *
 * `custom_instructions` is ignored: free-text instructions cannot be followed without a language
 * model (the LLM responder follows them). `name` and `model_tier` do not change the wording.
 */
export class GroundedResponder implements Responder {
  async answer(question: Question): Promise<Answer> {
    const bubbles = BUBBLES[question.settings.response_length] ?? BUBBLES.balanced;
    const parts = question.parts ?? [];
    if (parts.length > 1) {
      // Each question of the message answered on its own, in its share of the bubbles; the whole
      // message when fewer than two parts find an answer.
      const share = Math.max(1, Math.floor(bubbles / parts.length));
      // In turn: a part whose best sentence an earlier part gave answers with its next ("…the
      // cheapest plan, and is there a lock-in?" gave the plan's summary twice).
      const said = new Set<string>();
      const grounded: Choice[] = [];
      // A part leaning on the one before asks of the subject that one was answered from (inSubject).
      let subject: SearchHit[] = [];
      for (const part of parts) {
        const hits = part.leans ? inSubject(part.message, subject, part.hits) : part.hits;
        const choice = await chooseFor({ ...question, ...part, hits, parts: undefined, said }, share);
        choice?.chosen.forEach((c) => c.units.forEach((u) => said.add(u.text)));
        if (choice) grounded.push(choice);
        subject = choice?.chosen[0] ? [choice.chosen[0].hit] : [];
      }
      if (grounded.length > 1) return assemble(question, interleave(grounded, bubbles), grounded);
    }
    const choice = await chooseFor(question, bubbles);
    return choice ? assemble(question, choice.chosen, [choice]) : unknown(question);
  }
}

/** The bubbles for one question: each sentence of its relevant passages scored by meaning when the model runs. */
const chooseFor = async (question: Question, bubbles: number): Promise<Choice | null> => {
  if (!question.similarity) return choose(question, bubbles);
  const context = new Map<string, string>();
  for (const h of candidates(question, relevantHits(question.message, question.hits))) {
    for (const u of unitsOf(h.passage)) if (!context.has(u.text)) context.set(u.text, inContext(h.passage, u.text));
  }
  if (context.size === 0) return choose(question, bubbles);
  const texts = [...context.keys()];
  const sims = await question.similarity(texts.map((t) => context.get(t)!));
  return choose(question, bubbles, new Map(texts.map((text, i) => [text, sims[i]])));
};

/** A sentence within this much similarity of the best one answers too (chosen on the tuning half of tests/fixtures/eval). */
export const UNIT_MARGIN = 0.04;
/**
 * The same for a sentence of another article than the best hit's: it answers only when about as
 * close as the best sentence, else it pads (an outsider's thirteenth centre: "Do I get the $20
 * sign-up charge back?" then the cleaning fee of the move-out article). Tuning half, from 0.04
 * (as UNIT_MARGIN) down: cited 156 → 158, key facts 149 → 148, sources 222 → 210 (0.015: 159,
 * 148, 214; 0.005: 157, 148, 203; 0: 155, 147, 199).
 */
export const OTHER_ARTICLE_MARGIN = 0.01;
/** How much a sentence's share of the question's words adds to its similarity. */
export const UNIT_TERM_WEIGHT = 0.1;
/** How much holding the kind of answer the question asks for (a price, a duration) adds (tuning half: 0.08 of 0 to 0.12). */
export const UNIT_KIND_WEIGHT = 0.08;

/** What one question's answer is made of: its bubbles, best first, and how its hits were judged. */
interface Choice {
  chosen: Chunk[];
  judged: ReturnType<typeof judgeHits>;
  relevant: SearchHit[];
}

/** The "I don't know" answer in the tone: nothing relevant, nothing invented; greeting only in the conversation's first answer. */
const unknown = (question: Question): Answer => ({
  messages: [withoutGreeting(question, wordingOf(question))],
  quick_replies: [],
  buttons: [],
  images: [],
  sources: [],
  grounded: false,
});

/**
 * The grounded responder's answer, synchronously. `scores`: each sentence's similarity to the
 * question; without them, sentences are ranked by the question's words they share.
 */
export const groundedAnswer = (question: Question, scores?: ReadonlyMap<string, number>): Answer => {
  const choice = choose(question, BUBBLES[question.settings.response_length] ?? BUBBLES.balanced, scores);
  return choice ? assemble(question, choice.chosen, [choice]) : unknown(question);
};

/** At most `bubbles` bubbles that answer the question, in the order they are shown; null when nothing relevant answers. */
const choose = (question: Question, bubbles: number, scores?: ReadonlyMap<string, number>): Choice | null => {
  const judged = judgeHits(question.message, question.hits);
  const found = judged.filter((s) => s.relevant).map((s) => s.hit);
  const relevant = candidates(question, found);
  if (relevant.length === 0) return null;

  const asked = new Set(terms(question.message));
  const kinds = kindsAsked(question.message);
  // A sentence whose subject is a pronoun ("They cost $30 more") shares the words of what it stands for: the sentence before, or the title.
  const standsFor = new Map<Unit, Set<string>>();
  const overlap = (u: Unit) => [...asked].filter((q) => u.terms.has(q) || standsFor.get(u)?.has(q)).length;
  const kindShare = (u: Unit) => (kinds.length ? kinds.filter((k) => holdsKind(u.text, k)).length / kinds.length : 0);
  const score = (u: Unit) =>
    scores
      ? (scores.get(u.text) ?? 0) + (UNIT_TERM_WEIGHT * overlap(u)) / Math.max(1, asked.size) + UNIT_KIND_WEIGHT * kindShare(u)
      : overlap(u) + kindShare(u);
  // Every sentence once, with the passage it is shown from.
  const seen = new Set<string>();
  const pool: Pick[] = [];
  const topArticle = relevant[0].passage.articleId;
  const referred = new Set(relevant.filter((h) => h.passage.articleId !== topArticle && !found.includes(h)).map((h) => h.passage.articleId));
  relevant.forEach((hit, index) => {
    // A passage of an article the best hit sends its reader to ("see Returning your equipment"), which search did not find, answers right after it.
    const rank = hit.passage.articleId !== topArticle && !found.includes(hit) ? REFERRED : index;
    const units = unitsOf(hit.passage);
    const lead = leadOf(hit.passage, question.passagesOf);
    for (const unit of units) {
      if (PRONOUN_SUBJECT.test(unit.text)) standsFor.set(unit, (unit.index === 0 ? lead : units[unit.index - 1])?.terms ?? new Set(terms(hit.passage.title)));
      // A question closing its passage has no answer here: never shown, nor the best the others are measured by.
      if (asksItself(unit) && unit === units[units.length - 1]) continue;
      const key = unit.text.toLowerCase();
      if (seen.has(key) || question.said?.has(unit.text)) continue;
      seen.add(key);
      pool.push({ hit, unit, rank, score: score(unit) });
    }
    if (lead && !question.said?.has(lead.text)) pool.push({ hit, unit: lead, rank, score: -Infinity, lead: true });
  });
  if (pool.length === 0) return null;
  // "The cheapest…": the price-list entry with the lowest price, of the best article holding a price list, answers first, wherever search ranked its passage.
  const unitsIn = (articleId: string) => pool.filter((p) => p.hit.passage.articleId === articleId).map((p) => p.unit.text);
  const extremes =
    [...new Set(relevant.map((h) => h.passage.articleId))].map((id) => extremeEntries(question.message, unitsIn(id))).find((e) => e.size > 0) ?? new Set();
  for (const p of pool) if (extremes.has(p.unit.text)) [p.score, p.rank] = [p.score + (scores ? UNIT_KIND_WEIGHT : 1), -1];
  // An article referred to answers after the best hit, never instead of it: its sentences set no bar.
  const best = Math.max(...pool.filter((p) => p.rank !== REFERRED).map((p) => p.score));
  // Answering sentences: close in meaning to the best one (with the model), else sharing the question's words.
  // Without the model, a passage none of whose sentences shares a word matched by its title or heading: its first sentence stands in.
  const sharing = new Set(pool.filter((p) => !p.lead && overlap(p.unit) > 0).map((p) => p.hit));
  const margin = (p: Pick) => (p.hit.passage.articleId === topArticle ? UNIT_MARGIN : OTHER_ARTICLE_MARGIN);
  const answers = scores
    ? pool.filter((p) => p.score >= best - margin(p))
    : pool.filter((p, i) => !p.lead && (p.rank < 0 || overlap(p.unit) > 0 || (!sharing.has(p.hit) && pool[i - 1]?.hit !== p.hit)));
  // An article referred to answers only after a sentence naming it answers: the best hit's, or one an earlier part gave.
  const referring = [...answers.filter((r) => r.rank === 0).map((r) => r.unit.text), ...(question.said ?? [])];
  const followed = (p: Pick) =>
    p.hit.passage.articleId !== topArticle && referred.has(p.hit.passage.articleId) && referring.some((text) => refersTo(text, p.hit.passage.title));
  const matching = answers.filter((p) => p.rank !== REFERRED || followed(p));
  // Followed, the article's passages that search found answer there too (a price-list entry asked for stays first).
  for (const p of matching) if (p.rank > 0 && followed(p)) p.rank = REFERRED;
  // Passage by passage in rank order, each one's best first (ranked by score alone, the tuning half cited more articles and stated fewer facts).
  const ranked = [...matching].sort((a, b) => a.rank - b.rank || b.score - a.score || a.unit.index - b.unit.index);

  // Sentences taken together or not at all, while the answer stays within its bubbles.
  const picked: Pick[] = [];
  const take = (...picks: Pick[]) => {
    const fresh = picks.filter((p) => !picked.some((o) => o === p || o.unit.text === p.unit.text));
    if (fresh.length > 0 && layout([...picked, ...fresh]).length <= bubbles) picked.push(...fresh);
  };
  const neighbour = (p: Pick, offset: number) => pool.find((o) => o.hit === p.hit && o.unit.index === p.unit.index + offset);
  const takeWhole = (p: Pick) => {
    // A sentence that leans on the one before it comes with it ("Then set up 2FA again" alone
    // answers nothing), as does one answering the question before it.
    const previous = neighbour(p, -1);
    if (previous && (CONTINUES.test(p.unit.text) || asksItself(previous.unit))) take(previous, p);
    // A question the article asks ("Can I bring a guest?") states nothing alone: it comes with
    // the sentence after it (an FAQ's answer), or not at all.
    else if (asksItself(p.unit)) {
      const next = neighbour(p, 1);
      if (next) take(p, next);
    } else take(p);
  };
  for (const p of ranked) takeWhole(p);
  // A longer answer (two bubbles or more) is filled from the best article only: never padded with another article's sentences.
  if (bubbles > 1) for (const p of pool) if (p.hit.passage.articleId === topArticle) takeWhole(p);
  const chosen = layout(picked);
  return chosen.length === 0 ? null : { chosen, judged, relevant };
};

/** A sentence that may be chosen, with its passage and that passage's rank among the relevant ones (-1: the price list's entry asked for). */
interface Pick {
  hit: SearchHit;
  unit: Unit;
  rank: number;
  score: number;
  lead?: true; // the sentence a paragraph leans on (`leadOf`): taken only with it
}

/** The picked sentences as bubbles: each passage's in the article's order, passages in the order first picked. */
const layout = (picks: readonly Pick[]): Chunk[] => {
  const byPassage = new Map<string, { hit: SearchHit; units: Unit[] }>();
  for (const p of picks) {
    const group = byPassage.get(p.hit.passage.id) ?? { hit: p.hit, units: [] };
    group.units.push(p.unit);
    byPassage.set(p.hit.passage.id, group);
  }
  return [...byPassage.values()].flatMap(({ hit, units }) => chunk([...units].sort((a, b) => a.index - b.index)).map((u) => ({ hit, units: u })));
};

/**
 * The answer from its bubbles (each bubble one or more chunks): `tone` adds a greeting to the
 * conversation's first answer and, unless concise, a closing to the last bubble; sources, links,
 * images and quick replies come from what the bubbles cite.
 */
const assemble = (question: Question, bubbles: (Chunk | Chunk[])[], choices: Choice[]): Answer => {
  const { settings } = question;
  const wording = wordingOf(question);
  const groups = bubbles.map((b) => (Array.isArray(b) ? b : [b]));
  const messages = groups.map((group) =>
    group
      .map((c) =>
        [...c.units]
          .sort((a, b) => a.index - b.index)
          .map((u) => u.text)
          .join(' '),
      )
      .join(' '),
  );
  // The conversation's first answer greets; the next ones go on from it.
  if (!question.history.some((h) => h.role === 'ai')) messages[0] = `${wording.greeting} ${messages[0]}`;
  if (settings.response_length !== 'concise') messages[messages.length - 1] = `${messages[messages.length - 1]} ${wording.closing}`;

  const cited = distinctBy(
    groups.flat().map((c) => c.hit),
    (h) => h.passage.id,
  );
  const sources = distinctBy(
    cited.map((h) => h.passage.title),
    (s) => s,
  );
  const links = cited.map((h) => extractLinks(h.passage.text));
  // A paragraph that is only an image has no sentence to cite: its image comes with its article's answer when it is relevant.
  const citedArticleIds = new Set(cited.map((h) => h.passage.articleId));
  const pictures = choices
    .flatMap((c) => c.relevant)
    .filter((h) => citedArticleIds.has(h.passage.articleId) && !cited.includes(h) && unitsOf(h.passage).length === 0)
    .map((h) => extractLinks(h.passage.text).images);
  const buttons = distinctBy(
    links.flatMap((l) => l.buttons),
    (b) => b.url,
  ).slice(0, ANSWER_LIMITS.buttons);
  const images = distinctBy([...links.flatMap((l) => l.images), ...pictures.flat()], (i) => i).slice(0, ANSWER_LIMITS.images);

  const citedTitles = new Set(sources);
  const quick_replies = distinctBy(
    choices
      .flatMap((c) => c.judged)
      .filter((s) => s.related && !citedArticleIds.has(s.hit.passage.articleId) && !citedTitles.has(s.hit.passage.title))
      .map((s) => s.hit),
    (h) => h.passage.articleId,
  )
    .map((h) => quickReplyFor(h.passage.title))
    .filter((q, i, all) => all.indexOf(q) === i)
    .slice(0, ANSWER_LIMITS.quickReplies);

  return { messages, quick_replies, buttons, images, sources, grounded: true };
};
