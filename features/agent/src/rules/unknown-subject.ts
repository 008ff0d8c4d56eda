import { looksEnglish } from '../knowledge/text';

/**
 * A yes-or-no question about something the help centre never names ("Does it work with Apple
 * HomeKit?", "Do you deliver to Australia?", "Can I pay in Bitcoin?"): nothing the customer may
 * read can confirm it, and answering from the nearest article (the shipping countries, the
 * supported assistants) reads as a yes or a guess. Such a question is not answered from the
 * articles: the customer gets "I don't know" (a person, when escalation is on).
 *
 * A name is a capitalised word inside a sentence (not its first word, not "I" or "I've", not a word in
 * capitals, which is shouting as often as an acronym). Only English questions are judged: other
 * languages capitalise other words (German nouns). An open question naming an unknown place
 * ("I live in Toronto. What does delivery cost?") is still answered: its answer (the rate for
 * Canada) may well be in the articles.
 */
export const unknownSubject = (message: string, mentioned: (word: string) => boolean): boolean => {
  if (!looksEnglish(message)) return false;
  const asked = questionSentence(message);
  if (asked !== null && YES_NO.test(asked) && namesIn(asked).some((name) => !mentioned(name))) return true;
  // A code, in whichever question names it ("Is KESTREL30 a valid code? What does it give me?").
  return questionsOf(message).some((q) => YES_NO.test(q) && (q.match(CODE_LIKE) ?? []).some((code) => !mentioned(code)));
};

/** A message's questions: its sentences ending in "?" (else the whole message when it is one sentence). */
const questionsOf = (message: string): string[] => {
  const sentences = message
    .split(/(?<=[.!?])\s+/)
    .map((s) => s.trim())
    .filter(Boolean);
  const questions = sentences.filter((s) => s.endsWith('?'));
  return questions.length > 0 ? questions : sentences.length === 1 ? sentences : [];
};

/** The question a message asks: its last. */
const questionSentence = (message: string): string | null => questionsOf(message).at(-1) ?? null;

/** An optional greeting or filler before the question ("Hi, do you…", "So can I…"). */
const OPENING = String.raw`^(?:(?:hi|hello|hey|ok(?:ay)?|so|and|also|quick question)\W+)?`;
const ASKS = '(?:do|does|did|can|could|is|are|will|would|may|have|has)';
/** Opens like a yes-or-no question, after an optional greeting. */
const YES_NO = new RegExp(String.raw`${OPENING}${ASKS}\b`, 'i');

/**
 * Capitalised words after a sentence's first: the names a question mentions. And anywhere, a
 * code of capitals and digits ("Is KESTREL30 a valid code?", "Does SAVE-20 still work?"): only
 * an article naming it can say, and one on some other code ("A PAC code is valid for 30 days")
 * reads as a yes.
 */
const namesIn = (sentence: string): string[] => [
  ...[...sentence.matchAll(/(?<=[\s(/"'])(\p{Lu}[\p{L}\p{N}'-]*)/gu)]
    .map((m) => m[1].replace(/'s$/, ''))
    .filter((w) => !/^I(?:['’]\p{L}+)?$/u.test(w) && w !== w.toUpperCase()),
  ...(sentence.match(CODE_LIKE) ?? []),
];

/** Four or more capitals, digits and dashes, with at least one of each of the first two. */
const CODE_LIKE = /(?<![\p{L}\p{N}-])(?=[\p{Lu}\d-]*\d)(?=[\p{Lu}\d-]*\p{Lu})[\p{Lu}\d][\p{Lu}\d-]{3,}(?![\p{L}\p{N}-])/gu;

/**
 * A yes-or-no question put to the business about what it does or has ("Do you deliver…?", "Can
 * I pay…?", "Does your app…?", "Is there a…?"), not a request to the assistant ("Can you tell
 * me…?", "Do you know…?").
 */
export const asksTheBusiness = (message: string): boolean => {
  const asked = questionSentence(message);
  return asked !== null && TO_THE_BUSINESS.test(asked) && !TO_THE_ASSISTANT.test(asked);
};

const TO_THE_BUSINESS = new RegExp(String.raw`${OPENING}${ASKS}\s+(?:you|your|i|we|my|our|there)\b`, 'i');
const TO_THE_ASSISTANT = new RegExp(
  String.raw`${OPENING}(?:do|can|could|will|would)\s+you\s+(?:know|think|like|believe|feel|tell|give|recommend|suggest|write|explain|help|show|imagine|remember|speak|translate|play|sing)\b`,
  'i',
);
