import { type Language, wordsFor } from '../responders/languages';
import type { Tone } from '../responders/types';

/** "Can I talk to a person?", in the languages the agent meets most. */
const ASKS_FOR_PERSON = new RegExp(
  [
    String.raw`\b(?:talk|speak|chat)\s+(?:to|with)\s+(?:a|an|some|your)?\s*(?:one|body)?\s*(?:real\s+)?(?:human|person|agent|representative|rep|someone|somebody|staff|operator)\b`,
    String.raw`\b(?:real|live)\s+(?:person|human|agent)\b`,
    String.raw`\bhuman\s+(?:please|agent|support)\b`,
    // "I want a manager", "get me your supervisor", "I need a human".
    String.raw`\b(?:want|need|demand|get\s+me|give\s+me|put\s+me\s+through\s+to|connect\s+me\s+(?:to|with))\s+(?:to\s+(?:talk|speak)\s+(?:to|with)\s+)?(?:a|an|your|the|some)?\s*(?:manager|supervisor|human)\b(?!\s+(?:account|role|login|access|permission|seat|view|dashboard))`,
    String.raw`\b(?:talk|speak)\s+(?:to|with)\s+(?:a|an|your|the)?\s*(?:manager|supervisor)\b`,
    // A call asked for ("call me about my booking", "can someone ring me back?"); not "what if they call me?".
    String.raw`(?:^|[.!?,;:]\s*|\b(?:please|pls|can\s+(?:you|someone|somebody)|could\s+(?:you|someone|somebody)|(?:you|someone|somebody)\s+(?:can|could|should)|i\s+(?:want|need|would\s+like)\s+(?:you\s+|someone\s+)?to)\s+)(?:call|ring|phone)\s+me(?:\s+back)?\b`,
    String.raw`\bhablar\s+con\s+(?:una\s+persona|un\s+agente|un\s+humano|alguien)\b`,
    String.raw`\b(?:mit\s+einem|einen)\s+(?:menschen|mitarbeiter|berater)\b`,
    String.raw`\bparler\s+(?:a|à)\s+(?:un\s+humain|une\s+personne|un\s+agent|un\s+conseiller|quelqu'un)\b`,
  ].join('|'),
  'i',
);

/** "Are you a real person?", "is this a bot?": a question about who answers, not a request for someone else. */
const ASKS_WHO_ANSWERS = /\b(?:are\s+you|is\s+this|is\s+that)\s+(?:a\s+|an\s+)?(?:real\s+|live\s+|actual\s+)?(?:person|human|bot|robot|machine|ai)\b/i;
/** Asking to talk to someone, which a question about who answers may still do ("are you a bot? I want to talk to a human"). */
const ASKS_TO_TALK = /\b(?:talk|speak|chat)\s+(?:to|with)\b/i;

/** True when the customer asks for a person. */
export const asksForPerson = (message: string): boolean => {
  const text = message.normalize('NFC');
  if (!ASKS_FOR_PERSON.test(text)) return false;
  return !ASKS_WHO_ANSWERS.test(text) || ASKS_TO_TALK.test(text);
};

const HANDOFF: Record<Tone, string> = {
  professional: 'Thank you for your patience. I am passing your conversation to a member of our team, who will reply here shortly.',
  friendly: "I'm handing you over to a person on our team: they'll reply here as soon as they can!",
  casual: "Got it, I'm getting someone from the team. They'll reply here soon!",
};

/** The one bubble telling the customer a person takes over, in the agent's tone. */
export const handoffReply = (tone: Tone, language: Language | null = null): string => wordsFor(tone, language)?.handoff ?? HANDOFF[tone] ?? HANDOFF.friendly;

const NO_HANDOFF: Record<Tone, (business: string) => string> = {
  professional: (b) => `I am not able to connect you with a member of our team in this chat, but I am glad to help with any question about ${b}.`,
  friendly: (b) => `I can't hand you over to a person in this chat, but I'm happy to help with any question about ${b}!`,
  casual: (b) => `No one from the team can join this chat, sorry! But ask me anything about ${b}.`,
};

/** When hand-overs are off: the customer asked for a person, and is told plainly that none can join, in the agent's tone. */
export const noHandoffReply = (tone: Tone, business: string, language: Language | null = null): string =>
  (wordsFor(tone, language)?.noHandoff ?? NO_HANDOFF[tone] ?? NO_HANDOFF.friendly)(business);
