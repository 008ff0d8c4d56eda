import * as E from 'fp-ts/Either';
import * as t from 'io-ts';
import type { SearchHit } from '../knowledge/types';
import { extractLinks } from './markdown';
import { ANSWER_LIMITS, distinctBy } from './answer';
import { chatRequest } from './llm-prompt';
import type { Answer, ModelTier, Question, Responder } from './types';

export interface LlmResponderOptions {
  /** OpenAI-compatible base URL, without the trailing `/chat/completions` (e.g. `https://api.openai.com/v1`). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>` when set. Never logged. */
  apiKey?: string;
  /** The model used for each tier (`settings.model_tier`). */
  models: Record<ModelTier, string>;
  /** Whole request budget (connect, answer and body), default 20000 ms. */
  timeoutMs?: number;
  /** Answers when the model cannot be used (timeout, HTTP or network error, unusable output). */
  fallback: Responder;
  log: { warn(msg: string, fields?: Record<string, unknown>): void };
}

const DEFAULT_TIMEOUT_MS = 20_000;
const MAX_MESSAGES = 4;
/** Each part of a many-question message adds its best few passages to the model's context. */
const PART_HITS = 3;

/**
 * What the model must return (the `content` of its message, a JSON object). Only `messages` is
 * required; a missing list is taken as empty. A field of the wrong type makes the whole answer
 * unusable (the fallback answers instead).
 */
const ModelAnswer = t.intersection([
  t.type({ messages: t.array(t.string) }),
  t.partial({
    quick_replies: t.array(t.string),
    buttons: t.array(t.type({ text: t.string, url: t.string })),
    images: t.array(t.string),
    citations: t.array(t.number),
  }),
]);
type ModelAnswer = t.TypeOf<typeof ModelAnswer>;

/** The part of an OpenAI-compatible chat completion we read. */
const Completion = t.type({
  choices: t.array(t.type({ message: t.type({ content: t.union([t.string, t.null]) }) })),
});

const isHttpUrl = (value: string): boolean => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

/** Model output → Answer: caps, trimming, http(s) only, sources from valid citations only. Null when it has no message. */
export const toAnswer = (output: ModelAnswer, hits: readonly SearchHit[]): Answer | null => {
  const messages = output.messages
    .map((m) => m.trim())
    .filter((m) => m !== '')
    .slice(0, MAX_MESSAGES);
  if (messages.length === 0) return null;
  const cited = distinctBy(
    (output.citations ?? []).filter((n) => Number.isInteger(n) && n >= 1 && n <= hits.length),
    String,
  );
  const sources = distinctBy(
    cited.map((n) => hits[n - 1].passage.title),
    (s) => s,
  );
  // Links and images only from the passages the answer cites: a URL the model made up never reaches the customer.
  const citedLinks = cited.map((n) => extractLinks(hits[n - 1].passage.text));
  const knownUrls = new Set(citedLinks.flatMap((l) => [...l.buttons.map((b) => b.url), ...l.images]));
  const quick_replies = distinctBy(
    (output.quick_replies ?? []).map((q) => q.trim()).filter((q) => q !== ''),
    (q) => q,
  ).slice(0, ANSWER_LIMITS.quickReplies);
  const buttons = distinctBy(
    (output.buttons ?? []).map((b) => ({ text: b.text.trim(), url: b.url.trim() })).filter((b) => b.text !== '' && isHttpUrl(b.url) && knownUrls.has(b.url)),
    (b) => b.url,
  ).slice(0, ANSWER_LIMITS.buttons);
  const images = distinctBy(
    (output.images ?? []).map((i) => i.trim()).filter((i) => isHttpUrl(i) && knownUrls.has(i)),
    (i) => i,
  ).slice(0, ANSWER_LIMITS.images);
  // A URL written into a message must be one of the cited passages' too.
  const shown = messages.map((m) =>
    m.replace(/https?:\/\/[^\s<>()[\]"'`]+/gi, (url) => (knownUrls.has(url.replace(/[.,;:!?'"*_]+$/, '')) ? url : '[link removed]')),
  );
  return { messages: shown, quick_replies, buttons, images, sources, grounded: cited.length > 0 };
};

/** Models sometimes wrap JSON in a markdown fence despite `response_format`; accept that. */
const unfence = (content: string): string => {
  const m = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/i.exec(content);
  return m ? m[1] : content;
};

class Unusable extends Error {
  constructor(
    readonly reason: string,
    readonly fields: Record<string, unknown> = {},
  ) {
    super(reason);
  }
}

/**
 * Answers through an OpenAI-compatible chat completion API (`POST {baseUrl}/chat/completions`),
 * the model chosen by the configured tier, grounded on the retrieved passages given as numbered
 * context; the model returns a JSON object (see `ModelAnswer`) and cites passages by number.
 * `sources` are the titles of validly cited passages; `grounded` is whether it cited any.
 *
 * Any failure — timeout, network error, HTTP error, a body that is not a chat completion, content
 * that is not JSON of the expected shape, or no message in it — is logged as a warning (with the
 * reason, never the key) and answered by the fallback responder instead. It never throws for
 * that.
 *
 * Relevance: the model is called whenever retrieval found at least one passage, even one the
 * offline responder's lexical threshold would reject: the model judges relevance better
 * (paraphrases, follow-ups that lean on the history) and is told to say it does not know and cite
 * nothing when the passages do not answer — which makes the answer `grounded: false`. With no
 * passage at all there is nothing to ground an answer on, so the fallback answers directly (its
 * "I don't know") without spending a model call.
 */
export class LlmResponder implements Responder {
  private readonly timeoutMs: number;
  /** The base URL as logged: no user info, query or fragment (they could carry a secret). */
  private readonly loggedUrl: string;

  constructor(private readonly options: LlmResponderOptions) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    let logged = '(invalid URL)';
    try {
      const url = new URL(options.baseUrl);
      logged = `${url.origin}${url.pathname}`;
    } catch {
      // fetch will fail too, and say why
    }
    this.loggedUrl = logged;
  }

  async answer(asked: Question): Promise<Answer> {
    // A message of two or three questions: the model reads what each part found too (the whole message's hits first).
    const hits = distinctBy([...asked.hits, ...(asked.parts ?? []).flatMap((p) => p.hits.slice(0, PART_HITS))], (h) => h.passage.id);
    const question = { ...asked, hits };
    if (question.hits.length === 0) return this.fallbackAnswer(question);
    const tier = question.settings.model_tier;
    const model = this.options.models[tier];
    try {
      const output = await this.complete(chatRequest(question, model));
      const answer = toAnswer(output, question.hits);
      if (!answer) throw new Unusable('the model answer has no message');
      return answer;
    } catch (err) {
      const reason = err instanceof Unusable ? err.reason : err instanceof Error ? err.message : String(err);
      const fields = err instanceof Unusable ? err.fields : {};
      this.options.log.warn('LLM answer unusable; the fallback responder answers instead', {
        reason: this.redact(reason),
        ...fields,
        model,
        model_tier: tier,
        base_url: this.loggedUrl,
      });
      return this.fallbackAnswer(question);
    }
  }

  /** The offline responder's answer, marked: the turn charges and reports the tier that answered. */
  private async fallbackAnswer(question: Question): Promise<Answer> {
    return { ...(await this.options.fallback.answer(question)), fallback: true };
  }

  /** One chat completion, its content decoded; throws `Unusable` for every failure. */
  private async complete(body: Record<string, unknown>): Promise<ModelAnswer> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.timeoutMs);
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    let text: string;
    let status: number;
    try {
      const res = await fetch(`${this.options.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: controller.signal,
      });
      status = res.status;
      text = await res.text();
    } catch (err) {
      if (controller.signal.aborted) throw new Unusable(`timeout after ${this.timeoutMs} ms`);
      const cause = err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : '';
      throw new Unusable(`network error: ${err instanceof Error ? err.message : String(err)}${cause}`);
    } finally {
      clearTimeout(timer);
    }
    if (status < 200 || status > 299) {
      throw new Unusable(`HTTP ${status}`, { status, body: this.redact(text.slice(0, 300)) });
    }
    let completion: unknown;
    try {
      completion = JSON.parse(text);
    } catch {
      throw new Unusable('the response is not JSON');
    }
    const decoded = Completion.decode(completion);
    if (E.isLeft(decoded) || decoded.right.choices.length === 0) throw new Unusable('the response is not a chat completion');
    const content = decoded.right.choices[0].message.content;
    if (content === null || content.trim() === '') throw new Unusable('the model answer is empty');
    let parsed: unknown;
    try {
      parsed = JSON.parse(unfence(content));
    } catch {
      throw new Unusable('the model answer is not JSON', { content: this.redact(content.slice(0, 200)) });
    }
    const output = ModelAnswer.decode(parsed);
    if (E.isLeft(output)) {
      // `messages.0`, `citations`… (the intersection's member indices left out).
      const pathOf = (e: t.ValidationError) =>
        e.context
          .filter((c, i) => c.key !== '' && !(e.context[i - 1]?.type instanceof t.IntersectionType))
          .map((c) => c.key)
          .join('.') || '(root)';
      const paths = [...new Set(output.left.map(pathOf))];
      throw new Unusable('the model answer has the wrong shape', { invalid: paths.slice(0, 5) });
    }
    return output.right;
  }

  /** Text that goes to the log never carries the API key (an error body may echo it). */
  private redact(text: string): string {
    const key = this.options.apiKey;
    return key ? text.split(key).join('[redacted]') : text;
  }
}
