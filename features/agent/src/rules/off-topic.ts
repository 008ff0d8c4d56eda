import { MIN_SIMILARITY, type SemanticSearch } from '../knowledge/embeddings';
import type { SearchHit } from '../knowledge/types';
import { looksEnglish, terms } from '../knowledge/text';
import { passageTerms } from '../knowledge/sentences';
import { AGENT_DEFAULTS } from '../config/decider';
import { type Language, wordsFor } from '../responders/languages';
import type { Tone } from '../responders/types';
import {
  CHOSEN_OFF_TOPIC_REQUESTS,
  CHOSEN_OFF_TOPIC_REQUESTS_BUT_SUM,
  OFF_TOPIC_REQUESTS,
  OFF_TOPIC_REQUESTS_BUT_SUM,
  SUM_REQUEST,
} from './off-topic-requests';
import { asksTheBusiness } from './unknown-subject';

export { CHOSEN_OFF_TOPIC_REQUESTS, OFF_TOPIC_REQUESTS, SUM_REQUEST };

/**
 * How much closer to an off-topic request than to the best passage a message must be to count
 * as off-topic (unless it uses ABOUT_THE_PRODUCT of that passage's words). With some 280
 * requests, some request is always near: on the tuning half of tests/fixtures/eval, a margin of
 * 0 declined five answerable questions ("In which cities can I find you?" among them), 0.004
 * none of them, and as many of the chosen probe lists' off-topic messages; 0.006 let four
 * more through.
 */
export const OFF_TOPIC_MARGIN = 0.004;

/**
 * Whether a customer's message asks for something off-topic: closer in meaning to one of
 * OFF_TOPIC_REQUESTS than to any passage, by OFF_TOPIC_MARGIN. Such a message cites nothing,
 * however many of its words the help centre happens to use ("a joke about programmers", "which
 * stocks should I buy this year"). A message that does not read as English is compared with
 * CHOSEN_OFF_TOPIC_REQUESTS only, by no margin: on the tuning half, 9 of its 26 such answerable
 * questions came within 0.02 of an everyday request, none nearer to a chosen one than to its
 * passage, and the same off-topic messages were declined. Search found `hits`; when it found
 * none, every passage is below MIN_SIMILARITY and shares no word with it. Without the embedding model, only a sum is
 * (BM25's word-share rule stands).
 */
export const offTopic = async (semantic: Pick<SemanticSearch, 'closestInList'> | null, message: string, hits: readonly SearchHit[]): Promise<boolean> => {
  if (asksForSum(message)) return true;
  if (!semantic) return false;
  // Nothing in the help centre near it, by words or meaning: about something else, unless put
  // to the business ("Do you deliver to Australia?", which a person may answer). On the tuning
  // half every message search found nothing for was off-topic or small talk; the rest of this
  // rule missed "Who won the 1998 World Cup?" (an outsider's trial), handed to a person. English
  // only: a question to the business is told in English alone ("Kann ich mit Bitcoin…?" is one).
  if (hits.length === 0 && looksEnglish(message) && !asksTheBusiness(message)) return true;
  // The word count first: a question about the product needs no call to the model.
  if (hits.length > 0 && (asks(message) || tellsOwn(message)) && sharedWithClosest(message, hits) >= ABOUT_THE_PRODUCT) return false;
  // A customer asking what they may do, of what the closest article names ("Can I bring my pet along?"), asks about the product too.
  if (hits.length > 0 && asksWhatTheyMay(message) && sharedWithClosest(message, hits) >= 1) return false;
  const closest = hits.length ? Math.max(...hits.map((h) => h.similarity ?? -1)) : MIN_SIMILARITY;
  // A message in another language meets English text in a narrower band of similarity, where
  // one of many requests is near by chance: it is compared with the chosen requests only.
  const english = looksEnglish(message);
  const request = await semantic.closestInList(message, requestsFor(message, english));
  return request > closest + (english ? OFF_TOPIC_MARGIN : 0);
};

/**
 * The requests a message is compared with (offTopic). A message with one number, and one only,
 * asks no sum: "¿Cuánto cuesta enviar un paquete grande de unos 9 kilos…?" (an outsider's
 * parcel-locker centre) was nearer the sum request (0.830) than its price list (0.828), and was
 * declined. A sum written out in words has no digit, and is still compared with it.
 */
const requestsFor = (message: string, english: boolean): readonly string[] => {
  const oneNumber = (message.match(/\d+(?:[.,]\d+)*/g) ?? []).length === 1;
  if (english) return oneNumber ? OFF_TOPIC_REQUESTS_BUT_SUM : OFF_TOPIC_REQUESTS;
  return oneNumber ? CHOSEN_OFF_TOPIC_REQUESTS_BUT_SUM : CHOSEN_OFF_TOPIC_REQUESTS;
};

/** A number, with its currency before or after it ("£20", "20 euros", "NOK 150"): "what's 15% of £20?" is a sum too. */
const CURRENCY = String.raw`(?:[$€£¥]|(?:usd|eur|gbp|nok|sek|dkk|chf|cad|aud)\b|(?:euros?|dollars?|pounds?|quid|bucks)\b)`;
const NUMBER = String.raw`(?:${CURRENCY}\s?)?[-+]?\d[\d.,]*(?:\s?${CURRENCY})?`;
const OPERATOR = String.raw`(?:%\s*of|[-+*/x×÷^]|times|plus|minus|divided by|multiplied by|to the power of)`;
/** "What's 7 times 8?", "how much is 15% of 80", "calculate 12/4 + 3": the question is the sum itself. */
const SUM = new RegExp(
  String.raw`^(?:what(?:'s|’s| is)|how much is|calculate|compute|work out|solve)\s+${NUMBER}(?:\s*${OPERATOR}\s*${NUMBER})+\s*[?=!.]*$`,
  'i',
);

/**
 * Whether a message asks only for a sum to be worked out. Its numbers and words say nothing of
 * what a help centre knows, yet by meaning it lands near any passage with prices or limits.
 * Only with the question's own opening ("what is…", "calculate…"): "24/7?" alone asks about opening hours.
 */
export const asksForSum = (message: string): boolean => SUM.test(message.trim());

/**
 * A question that uses this many of its closest passage's words is about the product, whatever
 * it sounds like: "When is there a person at the front desk?" is close to "are you a human?",
 * and an answer about opening hours, not "I can only help with questions about…", is what it
 * needs (seen on a help centre tried after the split, a co-working space). So is a customer
 * telling of their own case in the first person ("I totally forgot to pick my dinners this
 * week.", close to asking what to cook: a FreshCrate follow-up's first message). A request is
 * declined all the same ("Tell me a joke about the rain forecast."): it asks for a task,
 * whatever its topic. On the tuning half, questions and first-person statements change no
 * figure and no probe list; messages of every kind would answer one more near-but-unanswerable
 * request.
 */
export const ABOUT_THE_PRODUCT = 2;

const asks = (message: string) => message.trim().endsWith('?');
/** "Can I…?", "may we…?", "do I have to…?", "is my…?": the customer's own case, not a task for the assistant. */
const asksWhatTheyMay = (message: string) =>
  /^(?:(?:hi|hello|hey|ok(?:ay)?|so|and|also|anyway)\W+)*(?:can|could|may|do|does|will|would|is|are|am)\s+(?:i|we|my|our)\b/i.test(message.trim());
/** A message telling of the customer's own case ("I forgot to pick my dinners this week."): not a request for a task. */
const tellsOwn = (message: string) => /^(?:i|i'm|i’m|i've|i’ve|i'd|i’d|my|we|we're|we’re|we've|we’ve|our)\s/i.test(message.trim());

/**
 * Words of the message in the article of the closest passage, or of the best-ranked one, as far
 * as search found it ("a walking club of 14…together": two passages of the group fares' article,
 * whose words a children's passage closer by meaning does not hold).
 */
const sharedWithClosest = (message: string, hits: readonly SearchHit[]): number => {
  const closest = hits.reduce((a, b) => ((b.similarity ?? -1) > (a.similarity ?? -1) ? b : a));
  const named = new Set(terms((message.match(NAME) ?? []).join(' ')));
  const asked = new Set(terms(message).filter((w) => !named.has(w)));
  const shared = (articleId: string) => {
    const own = new Set(hits.filter((h) => h.passage.articleId === articleId).flatMap((h) => [...passageTerms(h.passage)]));
    return [...asked].filter((w) => own.has(w)).length;
  };
  return Math.max(shared(closest.passage.articleId), shared(hits[0].passage.articleId));
};

/**
 * A place's name: a capitalised word after "in", "at", "to", "from", "near" or "around". It says
 * nothing of the product: "what's the weather looking like in Auckland this weekend?" shares
 * "Auckland" and "weekend" with a vet's delivery fees (an outsider's centre), and was answered
 * with them. Any capitalised word inside a sentence was too much: "Will the Economy daily price
 * go up next year?" (a car class) was then declined as off-topic.
 */
const NAME = /(?<=\b(?:in|at|to|from|near|around)\s+)\p{Lu}\p{Ll}[\p{L}'’-]*(?:\s+\p{Lu}\p{Ll}[\p{L}'’-]*)*/gu;

/** Who answers: the agent's name, unless it is still the default one ("I'm AI Agent" says nothing). */
const who = (name: string, business: string) =>
  name === AGENT_DEFAULTS.name ? `${possessive(business)} AI assistant` : `${name}, ${possessive(business)} AI assistant`;

/** "Acme's", and "Fjordline Ferries'" for a name ending in "s" (as a plural's). */
const possessive = (business: string) => (/s$/i.test(business) ? `${business}'` : `${business}'s`);

const DECLINES: Record<Tone, (who: string, business: string) => string> = {
  professional: (who, business) => `I am ${who}, and I can only help with questions about ${business}. How can I help you today?`,
  friendly: (who, business) => `I'm ${who}, so I can only help with questions about ${business}. What can I help you with?`,
  casual: (who, business) => `I'm ${who}: I can only help with ${business} stuff. What do you need?`,
};

/**
 * The reply to an off-topic request: who answers, and what it can help with, in the agent's
 * tone. Free, and never a hand-over: a person has nothing to add to "tell me a joke", and it
 * answers "are you a bot?" too.
 */
export const offTopicReply = (tone: Tone, name: string, business: string, language: Language | null = null): string => {
  const words = wordsFor(tone, language);
  if (!words) return (DECLINES[tone] ?? DECLINES.friendly)(who(name, business), business);
  return words.decline(name === AGENT_DEFAULTS.name ? words.assistant(business) : `${name}, ${words.assistant(business)}`, business);
};
