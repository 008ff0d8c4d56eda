/**
 * Name-calling and swearing in a customer's message: they say how the customer feels, not what
 * they ask. "You useless bot, just answer me: how much is a bike, idiot?" was declined as
 * off-topic, the insults pulling it nearer to chit-chat than to the bike's price. The question
 * is looked up without them (the customer's words are recorded as written); a message of
 * insults alone is left as it is, and declined as before.
 */
const INSULTING = String.raw`(?:useless|stupid|dumb|pathetic|worthless|hopeless|incompetent|brainless|clueless|crappy|shitty|lousy)`;
const AT = String.raw`(?:bot|robot|chatbot|machine|ai|computer|thing|people|lot)`;
const NAMES = String.raw`(?:idiots?|morons?|imbeciles?|clowns?|muppets?|jerks?)(?![\p{L}-])`;

const NOISE: readonly RegExp[] = [
  // "you useless bot", "you stupid idiots", ", idiot"
  new RegExp(String.raw`\byou\s+(?:${INSULTING}\s+)*(?:${INSULTING}\s+${AT}|${NAMES})\b`, 'giu'),
  new RegExp(String.raw`(?<![\p{L}-])(?:${INSULTING}\s+)*${NAMES}`, 'giu'),
  // Intensifiers: "how the f*** do I…", "this bloody app"
  /\b(?:fucking|fuckin|freaking|frigging|effing|bloody|damn|goddamn|f\*+(?:ing)?)\b/gi,
  /\bjust\s+answer\s+(?:me|the\s+question|my\s+question)\b/gi,
  /\b(?:ffs|wtf|for\s+(?:god|christ|heaven|pete)['’]?s\s+sake)\b/gi,
];

/** `message` without its insults and swearing; the message itself when nothing else is left. */
export const withoutInsults = (message: string): string => {
  const cleaned = NOISE.reduce((text, pattern) => text.replace(pattern, ' '), message)
    .replace(/\s+([,.!?:;])/g, '$1')
    .replace(/([,:;])(?:\s*[,:;])+/g, '$1')
    .replace(/[,:;]+(?=[.!?]|$)/g, '')
    .replace(/^[\s,.!:;]+/, '')
    .replace(/\s{2,}/g, ' ')
    .trim();
  return /\p{L}{2,}/u.test(cleaned) && cleaned !== message ? cleaned : message;
};
