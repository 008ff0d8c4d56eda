import { looksEnglish, terms } from '../knowledge/text';
import { MIN_SIMILARITY } from '../knowledge/embeddings';
import type { Passage, SearchHit } from '../knowledge/types';
import { ANSWER_LIMITS, distinctBy } from './answer';
import { extractLinks, plain, sentenceEnd, sentencesOf } from './markdown';
import type { Answer, Question, Responder, ResponseLength, Tone } from './types';

/*
 * Relevance rule (scores are BM25-like and unnormalised, so no raw score is a threshold alone).
 * With Q = the distinct analysed terms of the customer's message (`terms`: stop words removed,
 * stemmed), a hit is RELEVANT when both hold:
 *   1. coverage: at least MIN_TERM_SHARE of Q occurs in the passage's title, heading or text;
 *   2. closeness: its score is at least MIN_RELATIVE_SCORE × the best hit's score (and above 0).
 * Rule 1 is the absolute gate: an off-topic question still has a "best" hit, but that hit shares
 * (almost) none of the question's words. Rule 2 keeps weaker passages out when a clearly better
 * one exists. A message with no terms at all ("hi?") has nothing relevant.
 * A hit is RELATED (may be offered as a quick reply, never quoted) when it shares at least one
 * term of Q and scores at least MIN_RELATED_SCORE × the best.
 * Chosen on the labelled fixture (tests/fixtures/knowledge, top 8 hits, balanced): 0.5 / 0.4
 * cite the labelled article for 85 of 110 on-topic questions and say "I don't know" to 7 of 11
 * off-topic ones; a share of 0.4 answers 2 more off-topic questions, 0.6 refuses 40 % of the
 * on-topic ones. The closeness factor matters little between 0.3 and 0.5.
 */
export const MIN_TERM_SHARE = 0.5;
/**
 * With the embedding model, hits carry their similarity to the question (embeddings.ts), and the
 * rule is on meaning instead: a hit is RELEVANT when its similarity is at least MIN_SIMILARITY
 * (embeddings.ts: all answerable questions of the tuning half of tests/fixtures/eval reach it,
 * off-topic ones stay below 0.808) and within SIMILARITY_MARGIN of the best hit's.
 */
export const SIMILARITY_MARGIN = 0.02;
/**
 * An English question that shares no word with a passage needs more: off-topic questions ("will
 * it rain tomorrow?") reach 0.81 with some passage by meaning alone, answerable ones that share
 * no word stay above 0.84 (tuning half). A question in another language shares no word with an
 * English help centre and is judged on meaning alone.
 */
export const MIN_SIMILARITY_NO_SHARED_WORD = 0.825;
export const MIN_RELATIVE_SCORE = 0.4;
export const MIN_RELATED_SCORE = 0.2;

const BUBBLES: Record<ResponseLength, number> = { concise: 1, balanced: 2, detailed: 4 };
/** A bubble holds at most this many sentences (a lead-in with its list counts as one)… */
const UNITS_PER_BUBBLE = 2;
/** …and a second sentence joins it only if the bubble stays this short. */
const BUBBLE_CHARS = 420;

interface Wording {
  greeting: string;
  closing: string;
  unknown: string;
}

/** What the tone changes: the greeting of the first bubble, the closing of the last, the "I don't know". */
const WORDING: Record<Tone, Wording> = {
  professional: {
    greeting: 'Thank you for your question.',
    closing: 'Please let me know if there is anything else I can help you with.',
    unknown:
      'Thank you for your question. Unfortunately, I could not find information about this in our help center. Could you rephrase your question or add a few details?',
  },
  friendly: {
    greeting: 'Hi there!',
    closing: 'I hope that helps!',
    unknown: "Hi there! I'm sorry, I couldn't find anything about that in our help articles. Could you try asking in a different way?",
  },
  casual: {
    greeting: 'Hey!',
    closing: 'Anything else?',
    unknown: "Hey! Hmm, I couldn't find anything on that in our docs. Mind asking another way?",
  },
};

/**
 * A title that already reads as a direct question ("How do I export sales", "Can I rent a
 * reader", "What happens when a payment fails") — not an indirect one like "How card data is
 * protected" or "When you receive your money".
 */
const DIRECT_QUESTION =
  /^(?:(?:how|what|where|which|who|why|when)\s+(?:do|does|did|can|could|should|will|would|is|are|was|to|much|many|long|often|happens|if)|why|can|could|do|does|is|are|should|will|would|may)\b/i;

/** A related article offered as a quick reply, phrased as the customer's next message. */
export const quickReplyFor = (title: string): string => {
  const clean = title.trim().replace(/\s+/g, ' ');
  if (clean.endsWith('?')) return clean;
  if (DIRECT_QUESTION.test(clean)) return `${clean.replace(/[.!:;]+$/, '')}?`;
  return `Tell me about "${clean}"`;
};

/** A piece of answer text: one sentence, or a lead-in sentence with the list items it introduces. */
interface Unit {
  text: string;
  terms: Set<string>;
  index: number;
}

// ---------------------------------------------------------------------------------------------

interface Scored {
  hit: SearchHit;
  share: number;
  relevant: boolean;
  related: boolean;
}

/** Every hit with its share of the question's terms and whether it is relevant / related (rule above). */
/**
 * What the responder derives from a passage (its terms, its sentences) depends on the passage
 * alone: kept per passage object, so a passage asked about again is not analysed again. The
 * index keeps one object per indexed passage; a replaced article's old objects are collected.
 */
const analyses = new WeakMap<Passage, { terms?: Set<string>; units?: Unit[] }>();
const analysed = <K extends 'terms' | 'units'>(passage: Passage, key: K, make: () => NonNullable<{ terms?: Set<string>; units?: Unit[] }[K]>) => {
  let entry = analyses.get(passage);
  if (!entry) {
    entry = {};
    analyses.set(passage, entry);
  }
  return (entry[key] ??= make()) as NonNullable<{ terms?: Set<string>; units?: Unit[] }[K]>;
};

export const judgeHits = (message: string, hits: readonly SearchHit[]): Scored[] => {
  const question = new Set(terms(message));
  const best = hits.reduce((max, h) => Math.max(max, h.score), 0);
  const bestSimilarity = hits.reduce((max, h) => Math.max(max, h.similarity ?? -1), -1);
  const english = looksEnglish(message);
  return hits.map((hit) => {
    const { title, heading, text } = hit.passage;
    const passageTerms = analysed(hit.passage, 'terms', () => new Set(terms(`${title}\n${heading ?? ''}\n${text}`)));
    const shared = [...question].filter((q) => passageTerms.has(q)).length;
    const share = question.size === 0 ? 0 : shared / question.size;
    const relative = best > 0 && hit.score > 0 ? hit.score / best : 0;
    // Hits of the hybrid search carry the embedding similarity, a better gate than shared
    // words: a paraphrase, or a question in another language, shares meaning, not terms.
    const relevant =
      hit.similarity === undefined
        ? share >= MIN_TERM_SHARE && relative >= MIN_RELATIVE_SCORE
        : hit.similarity >= MIN_SIMILARITY &&
          hit.similarity >= bestSimilarity - SIMILARITY_MARGIN &&
          (shared > 0 || !english || hit.similarity >= MIN_SIMILARITY_NO_SHARED_WORD);
    return { hit, share, relevant, related: shared > 0 && relative >= MIN_RELATED_SCORE };
  });
};

/** Relevant hits, best first: what any responder may ground an answer on. */
export const relevantHits = (message: string, hits: readonly SearchHit[]): SearchHit[] =>
  judgeHits(message, hits)
    .filter((s) => s.relevant)
    .map((s) => s.hit);

/**
 * The default responder: offline, deterministic (no randomness, no clock, no I/O) and grounded.
 *
 * It answers only from relevant passages (rule above), best first:
 * - each relevant passage is cut into sentences (a sentence ending in `:` keeps the list it
 *   introduces); the sentences sharing question terms are its "matching" ones (when none does,
 *   the passage matched by its title or heading and its first sentence stands in);
 * - bubble candidates: for each relevant passage in rank order, its matching sentences, best
 *   matching first, two to a bubble (shown in text order); then, to fill a longer answer, the
 *   passages' other sentences in text order. Duplicate sentences are dropped;
 * - `response_length` takes the first 1 (concise), 2 (balanced) or up to 4 (detailed) bubbles;
 *   `tone` adds a greeting to the first bubble and, unless concise, a closing to the last;
 * - `sources`: titles of the articles whose passages gave a bubble (distinct, in bubble order);
 *   `buttons` and `images`: links and images in those passages only;
 * - `quick_replies`: up to 3 related articles not cited, in rank order, as questions.
 * With nothing relevant it invents nothing: one polite "I don't know" bubble in the tone,
 * `grounded: false`, no sources (the caller may escalate instead).
 *
 * `custom_instructions` is ignored: free-text instructions cannot be followed without a language
 * model (the LLM responder follows them). `name` and `model_tier` do not change the wording.
 */
export class GroundedResponder implements Responder {
  async answer(question: Question): Promise<Answer> {
    if (!question.similarity) return groundedAnswer(question);
    // With the embedding model: each sentence of the relevant passages scored by its meaning's closeness to the question.
    const texts = [...new Set(relevantHits(question.message, question.hits).flatMap((h) => unitsOf(h.passage).map((u) => u.text)))];
    if (texts.length === 0) return groundedAnswer(question);
    const sims = await question.similarity(texts);
    return groundedAnswer(question, new Map(texts.map((text, i) => [text, sims[i]])));
  }
}

/** A sentence within this much similarity of the best one answers too (chosen on the tuning half of tests/fixtures/eval). */
export const UNIT_MARGIN = 0.04;
/** How much a sentence's share of the question's words adds to its similarity. */
export const UNIT_TERM_WEIGHT = 0.1;

/**
 * A passage's sentences; a heading that says something itself (`Plus: $4.99 per month`, a
 * heading with a number) comes first, as a sentence.
 */
const unitsOf = (passage: Passage): Unit[] =>
  analysed(passage, 'units', () => {
    const heading = passage.heading && /\d/.test(passage.heading) ? [sentenceEnd(plain(passage.heading))] : [];
    return [...heading, ...sentencesOf(passage.text)].map((text, index): Unit => ({ text, index, terms: new Set(terms(text)) }));
  });

/**
 * The grounded responder's answer, synchronously. `scores`: each sentence's similarity to the
 * question; without them, sentences are ranked by the question's words they share.
 */
export const groundedAnswer = (question: Question, scores?: ReadonlyMap<string, number>): Answer => {
  const { settings } = question;
  const wording = WORDING[settings.tone] ?? WORDING.friendly;
  const judged = judgeHits(question.message, question.hits);
  const relevant = judged.filter((s) => s.relevant).map((s) => s.hit);
  if (relevant.length === 0) {
    return { messages: [wording.unknown], quick_replies: [], buttons: [], images: [], sources: [], grounded: false };
  }

  const asked = new Set(terms(question.message));
  const overlap = (u: Unit) => [...asked].filter((q) => u.terms.has(q)).length;
  const score = (u: Unit) => (scores ? (scores.get(u.text) ?? 0) + (UNIT_TERM_WEIGHT * overlap(u)) / Math.max(1, asked.size) : overlap(u));
  const best = scores ? Math.max(...relevant.flatMap((h) => unitsOf(h.passage).map(score))) : 0;
  const firstChunks: { hit: SearchHit; units: Unit[] }[] = [];
  const laterChunks: { hit: SearchHit; units: Unit[] }[] = [];
  const seen = new Set<string>();
  const topArticle = relevant[0].passage.articleId;
  for (const hit of relevant) {
    const units = unitsOf(hit.passage).filter((u) => {
      const key = u.text.toLowerCase();
      return seen.has(key) ? false : (seen.add(key), true);
    });
    if (units.length === 0) continue;
    // Answering sentences: close in meaning to the best one (with the model), else sharing the question's words.
    let matching = scores ? units.filter((u) => score(u) >= best - UNIT_MARGIN) : units.filter((u) => overlap(u) > 0);
    if (matching.length === 0 && !scores) matching = [units[0]];
    const ranked = [...matching].sort((a, b) => score(b) - score(a) || a.index - b.index);
    const rest = units.filter((u) => !matching.includes(u));
    firstChunks.push(...chunk(ranked).map((units) => ({ hit, units })));
    // A longer answer is filled from the best article only: never padded with another article's sentences.
    if (hit.passage.articleId === topArticle) laterChunks.push(...chunk(rest).map((units) => ({ hit, units })));
  }
  const chosen = inTextOrder([...firstChunks, ...laterChunks].slice(0, BUBBLES[settings.response_length] ?? BUBBLES.balanced));
  if (chosen.length === 0) {
    return { messages: [wording.unknown], quick_replies: [], buttons: [], images: [], sources: [], grounded: false };
  }

  const messages = chosen.map((c) =>
    [...c.units]
      .sort((a, b) => a.index - b.index)
      .map((u) => u.text)
      .join(' '),
  );
  messages[0] = `${wording.greeting} ${messages[0]}`;
  if (settings.response_length !== 'concise') messages[messages.length - 1] = `${messages[messages.length - 1]} ${wording.closing}`;

  const cited = distinctBy(
    chosen.map((c) => c.hit),
    (h) => h.passage.id,
  );
  const sources = distinctBy(
    cited.map((h) => h.passage.title),
    (s) => s,
  );
  const links = cited.map((h) => extractLinks(h.passage.text));
  // A paragraph that is only an image has no sentence to cite: its image comes with its article's answer when it is relevant.
  const citedArticleIds = new Set(cited.map((h) => h.passage.articleId));
  const pictures = relevant
    .filter((h) => citedArticleIds.has(h.passage.articleId) && !cited.includes(h) && unitsOf(h.passage).length === 0)
    .map((h) => extractLinks(h.passage.text).images);
  const buttons = distinctBy(
    links.flatMap((l) => l.buttons),
    (b) => b.url,
  ).slice(0, ANSWER_LIMITS.buttons);
  const images = distinctBy([...links.flatMap((l) => l.images), ...pictures.flat()], (i) => i).slice(0, ANSWER_LIMITS.images);

  const citedArticles = new Set(cited.map((h) => h.passage.articleId));
  const citedTitles = new Set(sources);
  const quick_replies = distinctBy(
    judged.filter((s) => s.related && !citedArticles.has(s.hit.passage.articleId) && !citedTitles.has(s.hit.passage.title)).map((s) => s.hit),
    (h) => h.passage.articleId,
  )
    .map((h) => quickReplyFor(h.passage.title))
    .filter((q, i, all) => all.indexOf(q) === i)
    .slice(0, ANSWER_LIMITS.quickReplies);

  return { messages, quick_replies, buttons, images, sources, grounded: true };
};

/**
 * The chosen bubbles with each passage's sentences back in the article's order (steps 1 to 4,
 * never 2 and 3 then 1 and 4): the passages keep their rank, their sentences are re-cut into
 * as many bubbles as they had.
 */
const inTextOrder = (chosen: { hit: SearchHit; units: Unit[] }[]): { hit: SearchHit; units: Unit[] }[] => {
  const byPassage = new Map<string, { hit: SearchHit; units: Unit[]; bubbles: number }>();
  for (const c of chosen) {
    const group = byPassage.get(c.hit.passage.id) ?? { hit: c.hit, units: [], bubbles: 0 };
    group.units.push(...c.units);
    group.bubbles += 1;
    byPassage.set(c.hit.passage.id, group);
  }
  return [...byPassage.values()].flatMap(({ hit, units, bubbles }) => {
    const ordered = [...units].sort((a, b) => a.index - b.index);
    const size = Math.ceil(ordered.length / bubbles);
    return Array.from({ length: bubbles }, (_, i) => ({ hit, units: ordered.slice(i * size, (i + 1) * size) })).filter((c) => c.units.length > 0);
  });
};

/** Units (best first) into bubbles of at most two, the second only while the bubble stays short. */
const chunk = (units: Unit[]): Unit[][] => {
  const out: Unit[][] = [];
  let current: Unit[] = [];
  let length = 0;
  for (const u of units) {
    if (current.length > 0 && (current.length >= UNITS_PER_BUBBLE || length + 1 + u.text.length > BUBBLE_CHARS)) {
      out.push(current);
      current = [];
      length = 0;
    }
    current.push(u);
    length += (length > 0 ? 1 : 0) + u.text.length;
  }
  if (current.length > 0) out.push(current);
  return out;
};
