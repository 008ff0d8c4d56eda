/**
 * What kind of answer an English question asks for, and whether a sentence holds one: "how
 * much does it cost" wants an amount of money, "how long" a duration, "how many" a number. A
 * sentence that holds the kind asked for is the likelier answer (a price, not the sentence on
 * switching plans that shares the question's words). Questions in other languages, and the
 * rest, ask for no kind.
 */
export type AnswerKind = 'money' | 'duration' | 'quantity';

const ASKS: [AnswerKind, RegExp][] = [
  ['money', /\b(?:how much|cost|costs|price|prices|pricing|pay|paying|fee|fees|charge|charged|charges|expensive|cheap|cheaper|taken off|deducted)\b/i],
  ['duration', /\b(?:how (?:long|often|soon|quickly|fast)|how many (?:days|hours|weeks|months|years|minutes)|when will|until when|by when)\b/i],
  ['quantity', /\b(?:how many|how much (?:storage|space|data)|how (?:big|large|long can)|maximum|max|limit|at most|up to)\b/i],
];

const HOLDS: Record<AnswerKind, RegExp> = {
  money: /[$€£¥¢]\s?\d|\d\s?(?:[€£¥¢%]|eur|usd|gbp|cad|cents?)\b|\d\s?%|\bfree\b/i,
  duration:
    /\b\d+(?:[.,]\d+)?\s*(?:[–-]\s*\d+\s*)?(?:seconds?|minutes?|hours?|days?|business days?|weeks?|months?|years?)\b|\b(?:hourly|daily|weekly|monthly|yearly|annually|instantly|immediately|every \w+)\b/i,
  quantity: /\d/,
};

/** The kinds of answer `question` asks for (a multi-part question may ask for several). */
export const kindsAsked = (question: string): AnswerKind[] => ASKS.filter(([, re]) => re.test(question)).map(([kind]) => kind);

/** Whether `sentence` holds an answer of `kind`. */
export const holdsKind = (sentence: string, kind: AnswerKind): boolean => HOLDS[kind].test(sentence);
