/**
 * A customer's everyday word for what the help centre calls by another name ("Do your vouchers
 * run out?" where the centre writes "Gift cards never expire"; "my puppy" where it writes "dogs").
 * Neither BM25 nor the small embedding model bridges such a pair reliably. Common English pairs of
 * one meaning in a support question, written from general usage, not from any evaluation set's
 * articles; each is used only when the help centre never uses the customer's word and uses the
 * other (so a centre that sells both vouchers and gift cards keeps them apart). Words with another
 * everyday meaning are left out: "unsubscribe" (from e-mails), "package" (a plan); "quit" only
 * where nothing else is quit (a phrase, below).
 */
const WORDS = new Map<string, readonly string[]>([
  ['voucher', ['gift card']],
  ['vouchers', ['gift cards']],
  ['postcode', ['postal code', 'zip code', 'address']],
  ['zipcode', ['zip code', 'postal code', 'address']],
  ['puppy', ['dog']],
  ['puppies', ['dogs']],
  ['kitten', ['cat']],
  // An animal by its kind where the centre speaks of pets only ("Can I bring my dog along?").
  ['dog', ['pet']],
  ['dogs', ['pets']],
  ['cat', ['pet']],
  ['cats', ['pets']],
  ['kid', ['child']],
  ['kids', ['children']],
  ['parcel', ['package']],
  ['shipping', ['delivery']],
  ['delivery', ['shipping']],
  ['login', ['sign in', 'log in']],
  ['signup', ['sign up', 'register']],
  ['photo', ['picture']],
  ['photos', ['pictures']],
  ['picture', ['photo']],
  ['pictures', ['photos']],
  ['bicycle', ['bike']],
  ['swap', ['exchange', 'change']],
  ['membership', ['subscription']],
  ['subscription', ['membership']],
  ['expiry', ['expire', 'expiration']],
  ['expiration', ['expire', 'expiry']],
  ['telephone', ['phone']],
  ['cellphone', ['mobile', 'phone']],
  // Bad weather by its kind: a centre that has a weather policy rarely names every storm.
  ['storm', ['weather']],
  ['storms', ['weather']],
  ['stormy', ['weather']],
  ['gale', ['weather']],
  ['gales', ['weather']],
  ['snowstorm', ['weather']],
  ['blizzard', ['weather']],
  ['hurricane', ['weather']],
  ['locals', ['residents']],
]);

/**
 * Phrases the same way, the customer's words then the centre's. Their words are too common to
 * tell whether the centre uses the phrase; where one word tells (a centre that says "sign" may
 * say "sign up"), it is named third, and a centre that holds it keeps the customer's phrase.
 */
const PHRASES: readonly [RegExp, readonly string[], string?][] = [
  // "run out of" is a quantity used up, not an expiry.
  [/\b(?:run|runs|running|ran) out\b(?! of\b)/gi, ['expire']],
  [/\bmoney back\b/gi, ['refund']],
  [/\bpost code\b/gi, ['postal code', 'zip code', 'address']],
  // Coming to see someone (or somewhere) is visiting them; "drop in" is left out ("a drop in price").
  [/\b(?:come|came|coming) (?:and |to )?see\b|\b(?:pop|drop|stop) by\b/gi, ['visit']],
  [/\bsign(?:s|ed|ing)? up\b/gi, ['register'], 'sign'],
  // Ringing a person or a number is calling them ("who do I ring?"), not a ring (a light, a bell).
  [
    /\b(?:ring|ringing|rang)\b(?=\s+(?:you|us|them|someone|somebody|anyone|the (?:office|clinic|shop|team|number|line)|(?:a|an|the|my|our|your|his|her|their|this|that)\s+(?:[\p{L}-]+\s+){0,2}(?:numbers?|lines?|landlines?|mobiles?|phones?)\b|\d|[?.!]|$))|(?<=\b(?:who|which number|what number) (?:do|should|can|could) (?:i|we) )ring\b/giu,
    ['call'],
  ],
  // A plan paid month by month, where the centre calls it rolling (British usage).
  [/\bmonth[- ]to[- ]month\b/gi, ['rolling']],
  [/\b(?:a )?bite to eat\b/gi, ['food']],
  // Holding on to something is keeping it ("how long will you hang on to them?"); "hold on" alone is waiting.
  [/\b(?:hang|hangs|hanging|hold|holds|holding)\s+(?:on\s+to|onto)\b/gi, ['keep', 'kept']],
  // The desk by the door is the reception, in a centre that never says "front".
  [/\bfront desk\b/gi, ['reception'], 'front'],
  // Something of one's own left or forgotten somewhere is lost property: "I left my jacket on the ferry"
  // ("I left a review on…" is not).
  [/\b(?:left|forgot|forgotten)\b(?=\s+(?:my|our|his|her|their)\s+[\p{L}-]+(?:\s+[\p{L}-]+)?\s+(?:on|in|at|behind)\b)/giu, ['lost']],
  // A plan named as one (which, the cheapest, my…): "Can I plan my visit?" keeps its verb.
  [
    /(?<=\b(?:which|what|the|a|an|my|your|our|this|that|cheapest|cheaper|best|monthly|annual|yearly|family|basic|premium|top|middle|lowest)\s+)plan\b/gi,
    ['membership', 'subscription', 'tier'],
    'plan',
  ],
  [/(?<=\b(?:which|what|the|my|your|cheapest|monthly|annual|yearly|family)\s+)plans\b/gi, ['memberships', 'subscriptions', 'tiers'], 'plans'],
  // Putting something of one's own on hold is pausing it ("Can I put my membership on hold?"); being on hold on the phone is not.
  [/\b(?:put|putting|place|placing|placed)\b(?=(?:\s+(?:my|our|the|your)\s+[\p{L}-]+(?:\s+[\p{L}-]+)?)?\s+on\s+hold\b)/giu, ['freeze', 'pause', 'suspend']],
  // Quitting with nothing after it, or quitting the service: "should I quit my job?" is no cancellation.
  [/\bquit(?:ting)?\b(?=\s*(?:[.?!,;:—–-]|$)|\s+(?:my|the|our|your)\s+(?:membership|plan|subscription|contract|account)\b)/gi, ['cancel']],
];

const heldIn = (phrase: string, holds: (word: string) => boolean) => phrase.split(/[^\p{L}]+/u).every(holds);

/**
 * A country by its people's word ("an American number", "my Irish plan") where the centre names
 * the country only; written with a capital, so looked up before a capitalised word is kept as a
 * name. "Us" is never an alternative: the pronoun is in every centre. Peoples whose word is also
 * a language ("French", "Welsh") are left out: "a French menu?" asks of the language.
 */
const PEOPLES = new Map<string, readonly string[]>([
  ['american', ['usa', 'united states', 'america']],
  ['british', ['uk', 'united kingdom', 'britain']],
  ['scottish', ['scotland']],
  ['irish', ['ireland']],
  ['canadian', ['canada']],
  ['australian', ['australia']],
  ['european', ['europe', 'eu']],
  ['mexican', ['mexico']],
  ['indian', ['india']],
  ['belgian', ['belgium']],
  ['swiss', ['switzerland']],
  ['austrian', ['austria']],
]);

/** `word`'s first alternative in `table` whose every word the centre holds, when it never uses `word`; null otherwise. */
const alternativeIn = (table: ReadonlyMap<string, readonly string[]>, word: string, holds: (word: string) => boolean): string | null => {
  const other = table.get(word);
  if (other === undefined || holds(word)) return null;
  return other.find((o) => heldIn(o, holds)) ?? null;
};

/** The country the centre names for a people's word (lowercased) it never uses; null otherwise. */
export const countryFor = (word: string, holds: (word: string) => boolean): string | null => alternativeIn(PEOPLES, word, holds);

/**
 * The help centre's word for `word` (lowercased) when the centre never uses `word` and holds
 * every word of one of its alternatives (the first such); null otherwise.
 */
export const centreWordFor = (word: string, holds: (word: string) => boolean): string | null => alternativeIn(WORDS, word, holds);

/** `message` with the customer's phrases in the centre's words, where the centre holds them. */
export const inCentrePhrases = (message: string, holds: (word: string) => boolean): string =>
  PHRASES.reduce((text, [pattern, other, own]) => {
    if (own !== undefined && holds(own)) return text;
    const alternative = other.find((o) => heldIn(o, holds));
    return alternative === undefined ? text : text.replace(pattern, alternative);
  }, message);
