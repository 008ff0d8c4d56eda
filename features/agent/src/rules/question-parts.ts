import { STOP_WORDS, terms } from '../knowledge/text';
import type { SearchHit } from '../knowledge/types';
import { heldIn, pointsBack } from './follow-up';

/**
 * Words that open a question of its own ("…, and how many sensors can I add?"), a question word
 * after its preposition too ("…, and until when can I cancel?", "…, and for how long?").
 */
const ASKS =
  "(?:(?:until|till|by|since|for|from|in|at|to|on|with|about)\\s+(?:what|when|how|which|where|who|whom)|what|what's|how|which|when|where|who|why|can|could|do|does|did|is|are|will|would|should|may)";
/** "…need, and how many…", "…? Also, can I…": a new question joined to the one before. */
const JOINED = new RegExp(`(?:,\\s*|\\s+)(?:and|also|plus|&)\\s*,?\\s+(?=${ASKS}\\b)`, 'i');
const OPENS_AS_QUESTION = new RegExp(`^(?:(?:and|also|plus)\\s*,?\\s+)?${ASKS}\\b`, 'i');
/** A question after what the customer tells first ("I'm on the monthly plan - what does it cost"). */
const ASKS_AFTER_CLAUSE = new RegExp(`[-–—:;,]\\s*${ASKS}\\b`, 'i');
/** "one" standing for a thing named before ("How long is a crown guaranteed, and how much does one cost?"). */
const ONE = /\b(?:(?:does|do|is|are|the|new|cheaper|cheapest|another|each)\s+ones?\b(?!-)|(?:on|for|with|of|in|to)\s+ones?(?=\s*(?:[?!.,]|$)))/i;
/** The thing a determiner names first ("a crown", "the monthly plan"), up to a word that is not a noun's. */
const NAMED = /\b(?:a|an|the|each|every|another)\s+([a-z][a-z-]*(?:\s+[a-z][a-z-]*)?)/i;
/** Words of a part besides its question words ("and why?" has none). */
const substance = (part: string): number => terms(part.replace(new RegExp(`\\b${ASKS}\\b`, 'gi'), ' ')).length;
/**
 * A later part of at most this many words of substance names no subject of its own ("…, and
 * what's the price?", "…and is the clay included?", "…and how far ahead must we book?"): it is
 * searched with the part before, as one that points back is. Searched alone, the fifteenth centre's
 * three found another article's sentence. Chosen on that centre (seen by then) when the tuning half
 * was the same at 0, 2 and 3; with the trials in it (eight centres), key facts at 0 / 1 / 2 / 3:
 * 265 / 266 / 266 / 267 of 319, sources 383 / 382 / 380 / 379.
 */
const SUBJECTLESS_TERMS = 3;
/** At most this many parts are answered one by one (a longer list is answered as one question). */
export const MAX_QUESTION_PARTS = 3;

/**
 * The separate questions in one message: "What's the yearly price of Pro, and how many days of
 * history does it keep?" is two, each looked up and answered on its own (searched as one, the
 * closest passage answers one half and the other is lost). A part is a question: it ends with
 * "?" or opens with a question word, and it has a word of substance ("and why?" has none). Anything else
 * (one question, "voltage and amperage", "Is it free? I mean for students") is one part: the
 * message itself. A part is answered from what its `query` finds, by its own `text`.
 */
export const questionParts = (message: string): { text: string; query: string }[] => {
  const parts = splitQuestions(message);
  // A part that points back ("…and how long does it work?") or names no subject is searched with the one before it;
  // "one" is read as the thing it stands for (searched with the whole part before, that part's
  // answer came back: "…a crown guaranteed, and how much does one cost?" gave the guarantee twice).
  return parts.map((text, i) => {
    if (i === 0 || !(pointsBack(text) || terms(text).length <= SUBJECTLESS_TERMS)) return { text, query: text };
    const thing = ONE.test(text) ? namedIn(parts[i - 1]) : undefined;
    if (!thing) return { text, query: `${parts[i - 1]}\n${text}` };
    const resolved = text.replace(ONE, (words) => words.replace(/ones?$/i, thing));
    return { text: resolved, query: resolved };
  });
};

/** Whether a part (of questionParts) is searched with the part before it: it asks of that part's subject. */
export const leansOnPart = (part: { text: string; query: string }): boolean => part.query !== part.text && part.query.endsWith(`\n${part.text}`);

/**
 * The hits of a part that leans on the part before it (leansOnPart): only the subject's article's
 * when one of its passages found holds one of the part's words at least, and as many as the best
 * hit of another article: in "…is there something I can add, and what would it cost?", "it" is
 * the booster the first part was answered with, not the installation fee that an outsider's
 * broadband centre found for the two searched together. `subject`: what the part before was
 * answered from (its first bubble's hit), not its best hit, which may be another article.
 */
export const inSubject = (text: string, subject: readonly SearchHit[], hits: readonly SearchHit[]): SearchHit[] => {
  const article = subject[0]?.passage.articleId;
  const own = hits.filter((h) => h.passage.articleId === article);
  if (own.length === 0 || hits[0].passage.articleId === article) return [...hits];
  const held = heldIn(new Set(terms(text)));
  const most = Math.max(...own.map(held));
  return most >= 1 && most >= held(hits[0]) ? own : [...hits];
};

/** The noun a part names after "a" or "the" ("a crown" in "How long is a crown guaranteed"), if any. */
const namedIn = (part: string): string | undefined => {
  const words = NAMED.exec(part)?.[1].split(/\s+/) ?? [];
  // An adjective and its noun, or a noun and what follows it: a participle or a stop word ends it.
  const kept = words.filter((w, i) => i === 0 || !(STOP_WORDS.has(w.toLowerCase()) || /(?:ed|ing)$/i.test(w)));
  return kept.length > 0 && !STOP_WORDS.has(kept[0].toLowerCase()) ? kept.join(' ') : undefined;
};

/** The message's questions, or the message alone when it is not two or three questions. */
const splitQuestions = (message: string): string[] => {
  const pieces = message
    .split(/(?<=\?)\s+/)
    .flatMap((sentence) => sentence.split(JOINED))
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (pieces.length < 2 || pieces.length > MAX_QUESTION_PARTS) return [message];
  const questions = pieces.every((p) => (p.endsWith('?') || OPENS_AS_QUESTION.test(p) || ASKS_AFTER_CLAUSE.test(p)) && substance(p) > 0);
  return questions ? pieces : [message];
};
