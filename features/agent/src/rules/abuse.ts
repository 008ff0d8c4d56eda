export interface PastMessage {
  sender_type: string;
  content: string;
  created_at: string;
}

/**
 * Abuse protection, per conversation: the agent does not answer a customer message that is
 * the third identical one in a row (ignoring case and spacing), nor more than
 * `perMinute` customer messages within 60 seconds. Such a turn gets no reply and costs nothing.
 */
export const ABUSE_LIMITS = { repeats: 3, perMinute: 10 } as const;

const norm = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();

export type AbuseVerdict = 'repeated' | 'flood' | null;

/** `history` oldest first, without this turn's message; `now` from the injected clock. */
export const abuseVerdict = (history: readonly PastMessage[], message: string, now: Date, limits = ABUSE_LIMITS): AbuseVerdict => {
  const fromCustomer = history.filter((m) => m.sender_type === 'customer');
  const last = fromCustomer.slice(-(limits.repeats - 1));
  if (last.length === limits.repeats - 1 && last.every((m) => norm(m.content) === norm(message))) return 'repeated';
  const since = now.getTime() - 60_000;
  if (fromCustomer.filter((m) => Date.parse(m.created_at) > since).length >= limits.perMinute) return 'flood';
  return null;
};
