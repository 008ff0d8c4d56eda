import { type Language, wordsFor } from '../responders/languages';
import { stem, tokenize as wordsOf } from '../knowledge/text';
import type { Tone } from '../responders/types';

export type SmallTalk = 'greeting' | 'thanks' | 'goodbye' | 'praise';

/**
 * The words that make a message small talk of a kind, in the languages the agent meets most
 * (en, es, de, fr, pt, it): a message needs one of them, and every other word of it must be
 * small talk too (another kind's mark, or a filler), emoji and punctuation aside. "hi there!",
 * "thanks, that is all!", "merci beaucoup" and "ok bye" are small talk; one word outside them
 * ("hi, how do I reset my password?") makes it a question.
 */
// prettier-ignore
const MARKS: Record<SmallTalk, readonly string[]> = {
  greeting: ['hi', 'hello', 'hey', 'heya', 'hiya', 'yo', 'howdy', 'greetings', 'morning', 'afternoon', 'evening', 'hola', 'buenas', 'buenos', 'hallo', 'guten', 'servus', 'moin', 'bonjour', 'salut', 'bonsoir', 'coucou', 'ola', 'ciao', 'buongiorno', 'sup'],
  thanks: ['thanks', 'thank', 'thx', 'ty', 'tysm', 'ta', 'cheers', 'gracias', 'danke', 'dank', 'merci', 'obrigado', 'obrigada', 'grazie', 'appreciate', 'appreciated'],
  goodbye: ['bye', 'goodbye', 'cya', 'later', 'adios', 'tschuss', 'revoir', 'tchau'],
  praise: ['great', 'awesome', 'best', 'amazing', 'wonderful', 'brilliant', 'love', 'legend', 'legends', 'lifesaver', 'star', 'champ'],
};

/** Words that go with the marks ("good morning everyone", "thank you so much", "see you"). */
// prettier-ignore
const FILLERS = [
  'good', 'there', 'everyone', 'all', 'team', 'folks', 'dias', 'tardes', 'noches', 'tag', 'morgen', 'abend', 'how', 'are', 'you', 'doing', 'is', 'it',
  'going', 'what', 's', 'up', 'much', 'so', 'a', 'lot', 'many', 'very', 'that', 'was', 'helpful', 'perfect', 'ok', 'okay', 'got', 'muchas', 'vielen',
  'schon', 'beaucoup', 'mille', 'i', 'really', 'for', 'the', 'help', 'your', 'no', 'more', 'questions', 'nothing', 'else', 'see', 'ya', 'have', 'nice',
  'day', 'au', 're', 'cool', 'this', 'bot',
  // How thanks and praise go on ("thanks so much, you've been super helpful", "just wanted to say thank you, all sorted now").
  've', 'been', 'super', 'such', 'again', 'kind', 'useful', 'extremely', 'incredibly', 'truly', 'guys', 'mate', 'just', 'wanted', 'to', 'say',
  'all', 'set', 'sorted', 'solved', 'fixed', 'works', 'now', 'clear', 'makes', 'sense', 'we', 'm', 'me', 'd', 'ever', 'as', 'always', 'u', 'ur',
  // A question announced before it is asked ("hi, sorry, one more thing").
  'sorry', 'one', 'thing', 'another', 'quick', 'question',
  // Regional thanks and farewells ("thanks heaps", "ta", "have a good one", "enjoy your weekend").
  'heaps', 'out', 'weekend', 'week', 'night', 'evening', 'enjoy', 'take', 'care', 'lovely', 'rest', 'of',
];

const ALL = new Set([...Object.values(MARKS).flat(), ...FILLERS]);
/**
 * Their English stems: a word of small talk in another form is small talk too ("that really
 * helped", "have a lovely day"); an outsider's trial had both declined as off-topic, and after
 * an answer taken for a follow-up that repeated it, charged.
 */
const STEMS = new Set([...ALL].map(stem));
const smallTalkWord = (word: string) => ALL.has(word) || STEMS.has(stem(word));

const WELLBEING = new Set(['you', 'day', 'going', 'doing']);
/** Wishing the agent well, with no mark: "have a good one", "enjoy your weekend", "take care". */
const FAREWELL =
  /\b(?:have a (?:good|nice|great|lovely) (?:one|day|night|week|weekend|evening)|enjoy (?:your|the)(?: rest of (?:your|the))? (?:day|week|weekend|evening)|take care\b(?! of))/i;

/** The longest message still taken for small talk, in words. */
const MAX_WORDS = 10;

/** The kind of small talk the message is, or null when it asks or says something more. */
export const smallTalkOf = (message: string): SmallTalk | null => {
  const words = wordsOf(message);
  if (words.length === 0 || words.length > MAX_WORDS || !words.every(smallTalkWord)) return null;
  // Goodbyes, then thanks: "ok thanks, bye" closes the conversation, "thanks!" may go on.
  const kind = (['goodbye', 'thanks', 'greeting', 'praise'] as const).find((kind) => words.some((w) => MARKS[kind].includes(w)));
  // Wishing the agent well closes the conversation, whatever came before it.
  if (FAREWELL.test(message)) return 'goodbye';
  if (kind) return kind;
  // No mark, only fillers, asking after the agent: "how's your day going?", "how are you doing?".
  return words.includes('how') && words.some((w) => WELLBEING.has(w)) ? 'greeting' : null;
};

const REPLIES: Record<Tone, Record<SmallTalk, string>> = {
  professional: {
    greeting: 'Hello, thank you for reaching out. How can I help you today?',
    thanks: 'You are welcome. Is there anything else I can help you with?',
    goodbye: 'Thank you for contacting us. Have a good day.',
    praise: 'Thank you for the kind words. How else can I help?',
  },
  friendly: {
    greeting: 'Hi there! How can I help you today?',
    thanks: "You're welcome! Anything else I can help with?",
    goodbye: 'Bye for now, have a great day!',
    praise: "Thank you, that's kind of you! What else can I help with?",
  },
  casual: {
    greeting: 'Hey! What can I do for you?',
    thanks: 'No problem! Anything else?',
    goodbye: 'See ya!',
    praise: 'Thanks! Anything else?',
  },
};

/** The short, tone-matched reply to small talk, in the customer's language when it is one of languages.ts. */
export const smallTalkReply = (kind: SmallTalk, tone: Tone, language: Language | null = null): string =>
  wordsFor(tone, language)?.smallTalk[kind] ?? (REPLIES[tone] ?? REPLIES.friendly)[kind];
