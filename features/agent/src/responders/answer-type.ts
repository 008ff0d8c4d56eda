/**
 * What kind of answer an English question asks for, and whether a sentence holds one: "how
 * much does it cost" wants an amount of money, "how long" a duration, "how many" a number. A
 * sentence that holds the kind asked for is the likelier answer (a price, not the sentence on
 * switching plans that shares the question's words); any other question after one value asks
 * for a number (`quantity`). Questions on how to do something ask for no kind.
 */
export type AnswerKind = 'money' | 'duration' | 'quantity';

const ASKS: [AnswerKind, RegExp][] = [
  [
    'money',
    /\b(?:how much|cost|costs|price|prices|pricing|pay|paying|fee|fees|charge|charged|charges|expensive|cheap|cheaper|cheapest|priciest|affordable|taken off|deducted|run me|set me back|in it for me|bill(?:s|ed)? (?:me|us))\b/i,
  ],
  [
    'duration',
    /\b(?:how (?:long|often|soon|quickly|fast)|how many (?:days|hours|weeks|months|years|minutes)|when will|until when|by when|how far (?:in advance|ahead|into the future))\b/i,
  ],
  ['quantity', /\b(?:how many|how much (?:storage|space|data)|how (?:big|large|long can|tall|high|wide|heavy|old)|maximum|max|limit|at most|up to)\b/i],
];

/** A percentage is an amount of money beside a word of price ("15% off", "a 3% fee"), not a humidity or a battery level. */
const PRICED = String.raw`\b(?:off|discount|discounts|discounted|fee|fees|refund|refunded|surcharge|commission|interest|cashback|back|vat|tax|deposit|price|prices|fare|fares|cost|costs|charge|charged|save|saving|savings|cheaper|rate)\b`;

/** A share of a price is an amount of money too: "one third of your daily rate", "half the fare", "double the standard price". */
const SHARE_OF_PRICE = String.raw`\b(?:half|(?:one|a|two)[- ]thirds?|(?:one|a|three)[- ]quarters?|double|twice|triple)\s+(?:of\s+)?(?:the|your|its|our|their)\s+(?:[\p{L}-]+\s+){0,2}(?:rate|price|fare|fee|cost|charge|rent)s?\b`;

/** ISO codes of currencies a help centre may price in, before or after the amount ("NOK 150", "45 EUR"); "kr" for the Nordic crowns. */
const CURRENCY = String.raw`(?:usd|eur|gbp|cad|aud|nzd|chf|sek|nok|dkk|isk|pln|czk|huf|jpy|cny|inr|sgd|hkd|zar|mxn|brl|kr)`;

const HOLDS: Record<AnswerKind, RegExp> = {
  money: new RegExp(
    String.raw`[$€£¥¢]\s?\d|\b${CURRENCY}\s?\d|\d\s?(?:[€£¥¢]|${CURRENCY}|cents?)\b|\bfree\b|\d\s?%(?=.*${PRICED})|(?<=${PRICED}.*)\d\s?%|${SHARE_OF_PRICE}`,
    'iu',
  ),
  duration:
    /\b\d+(?:[.,]\d+)?\s*(?:[–-]\s*\d+\s*)?(?:seconds?|minutes?|hours?|days?|(?:business|working|calendar) days?|weeks?|months?|years?)\b|\b(?:hourly|daily|weekly|fortnightly|biweekly|monthly|quarterly|yearly|annually|instantly|immediately|every \w+)\b/i,
  quantity: /\d/,
};

/**
 * A question after one value ("when can I…", "which…", "the longest…", "¿cuánto…?", "wie
 * lange…", "quand…"), in English, Spanish, German or French: its answer is the sentence that
 * holds a number, more often than the one that repeats its words. A bare "what" is not one
 * ("what does Plus offer?": tuning half, 2 facts more of 173 with it, and a list asked for
 * answered with a price); a question on how to do something is answered by steps instead.
 */
const ASKS_VALUE =
  /(?<!\p{L})(?:when|which|how (?:much|many|long|far|soon|often|late|early|big)|latest|earliest|longest|shortest|cu[aá]nt[oa]s?|cu[aá]ndo|qu[eé]|wie (?:viel|viele|lange|oft|sp[aä]t|fr[uü]h)|wann|welche[rs]?|combien|quand|quel(?:le)?s?)(?!\p{L})/iu;
const ASKS_STEPS = /\b(?:how (?:do|can|should|would) (?:i|we|you)|how to|what (?:do|should) i do|where)\b/i;

/**
 * The message's questions (its sentences ending in "?"), or the whole message when it has none.
 * Split, not matched: `/[^.!?]*\?/g` took time quadratic in a long message without a "?" (0.1 s at 10,000 characters).
 */
const asked = (message: string): string => {
  const questions = message.split(/(?<=[.!?])/).filter((s) => s.endsWith('?'));
  return questions.length > 0 ? questions.join(' ') : message;
};

/** The kinds of answer `message` asks for (a multi-part question may ask for several). */
export const kindsAsked = (message: string): AnswerKind[] => {
  // Asked in a question, not told ("…made me pay extra. How tall can a car be?"): the message's questions, when it has any.
  const question = asked(message);
  const kinds = ASKS.filter(([, re]) => re.test(question)).map(([kind]) => kind);
  if (!kinds.includes('quantity') && ASKS_VALUE.test(question) && !ASKS_STEPS.test(question)) kinds.push('quantity');
  return kinds;
};

/** Whether `sentence` holds an answer of `kind`. */
export const holdsKind = (sentence: string, kind: AnswerKind): boolean => HOLDS[kind].test(sentence);

/** "The cheapest…" asks for the lowest price of a list; "the most expensive…" for the highest. */
const LOWEST =
  /\b(?:cheapest|least expensive|most affordable|lowest[- ]priced|lowest (?:price|cost|fee))\b|\bm[aá]s barat[oa]s?\b|\bmoins cher\b|\bg[uü]nstigste\w*|\bbilligste\w*|\bpi[uù] economic[oa]\b/i;
const HIGHEST =
  /\b(?:most expensive|priciest|highest[- ]priced|highest (?:price|cost|fee))\b|\bm[aá]s car[oa]s?\b|\bplus cher\b|\bteuerste\w*|\bpi[uù] costos[oa]\b/i;
/**
 * A price list's entry: a name, a colon, then its price, after a table's column name when it is
 * one ("Basic: $12 per month", "Essential: £16.50 a month.", "Off-Peak: Weekly price $12.95 per
 * week"); in a table row of several cells, its first priced cell ("Inside cabin: Beds 2; Bergen
 * – Hirtshals NOK 990"), whose column may be named in up to five words ("UK price per month £8").
 */
const LISTED_PRICE = new RegExp(
  String.raw`^[^:.!?]{1,60}:\s*(?:[^;]{0,60};\s*){0,3}?(?:[\p{L}–-]+\s+){0,5}(?:(?:[$€£¥]|\b${CURRENCY})\s?(\d[\d,]*(?:\.\d+)?)|(\d[\d,]*(?:[.,]\d+)?)\s?(?:[€£¥]|${CURRENCY}\b))`,
  'iu',
);

const priceOf = (entry: string): number | null => {
  const found = LISTED_PRICE.exec(entry.trim());
  if (!found) return null;
  const digits = (found[1] ?? found[2]).replace(/,(?=\d{3}\b)/g, '').replace(',', '.');
  return Number(digits);
};

/**
 * The entries of a price list among `sentences` that hold the lowest (or highest) price when the
 * question asks for the cheapest (or the most expensive); none when it does not, or the list has
 * fewer than two prices. English, Spanish, French, German and Italian.
 */
export const extremeEntries = (message: string, sentences: readonly string[]): Set<string> => {
  // Asked in a question, not told ("I'm on the cheapest plan. Can I…?").
  const question = asked(message);
  const lowest = LOWEST.test(question);
  if (!lowest && !HIGHEST.test(question)) return new Set();
  const priced = sentences.flatMap((s) => {
    const price = priceOf(s);
    return price === null ? [] : [{ s, price }];
  });
  if (new Set(priced.map((p) => p.price)).size < 2) return new Set();
  const target = (lowest ? Math.min : Math.max)(...priced.map((p) => p.price));
  return new Set(priced.filter((p) => p.price === target).map((p) => p.s));
};
