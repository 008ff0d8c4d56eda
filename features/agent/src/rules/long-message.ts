/**
 * A long message is looked up by its questions: "…[8,000 characters of background]… So my
 * question is: how long can our motorhome be before it costs extra?" (an outsider's probe) found
 * the refunds by the background's words. Over LONG_MESSAGE_CHARS, the words asked are the
 * message's sentences ending in "?" (all of it when it has none). A shorter message keeps what it
 * tells ("I'm on Plus. Can I add a user?"); no question of the evaluation set is over 160
 * characters, and the embedding model reads a question's first and last 500 anyway.
 */
export const LONG_MESSAGE_CHARS = 600;

export const questionsOfLong = (message: string): string => {
  if (message.length <= LONG_MESSAGE_CHARS) return message;
  // Split, not matched: a pattern for "a sentence ending in ?" takes quadratic time on a long message without one.
  const asked = message.split(/(?<=[.!?\n])/).filter((s) => s.endsWith('?'));
  return asked.length > 0 ? asked.join(' ').replace(/\s+/g, ' ').trim() : message;
};
