import type { Passage, SearchHit } from '../knowledge/types';

export type Tone = 'professional' | 'friendly' | 'casual';
export type ResponseLength = 'concise' | 'balanced' | 'detailed';
export type ModelTier = 'essential' | 'pro' | 'ultra';

/** The configuration fields that shape an answer (spec 2.6). */
export interface AnswerSettings {
  name: string;
  tone: Tone;
  response_length: ResponseLength;
  custom_instructions: string | null;
  model_tier: ModelTier;
}

export interface HistoryEntry {
  /** `customer` for the person asking; `ai` for the agent's own bubbles; `agent` for a human. */
  role: 'customer' | 'ai' | 'agent';
  content: string;
}

export interface Question {
  settings: AnswerSettings;
  /** The business the agent speaks for (the workspace's name). */
  business?: string;
  /** The customer's message of this turn. */
  message: string;
  /** Earlier messages of the conversation, oldest first (this turn's message not included). */
  history: readonly HistoryEntry[];
  /** Passages retrieved for the message, best first. */
  hits: readonly SearchHit[];
  /** The meaning-similarity of each text to the question (the embedding model), when it runs: picks the sentences that answer. */
  similarity?: (texts: readonly string[]) => Promise<number[]>;
  /** Every passage of an article, in its order: the answer may come from a part of the best article that search ranked lower. */
  passagesOf?: (articleId: string) => readonly Passage[];
  /** The customer-facing passages of the articles a passage sends its reader to by title ("see Returning your equipment"). */
  referredTo?: (passage: Passage) => readonly Passage[];
  /** When the message asks two or three things (rules/question-parts.ts): each part with its own hits, answered part by part. */
  parts?: readonly QuestionPart[];
  /** Sentences an earlier part of the message already gave: this part answers with others. */
  said?: ReadonlySet<string>;
}

/** One of the questions in a customer's message, looked up on its own. */
export interface QuestionPart {
  message: string;
  hits: readonly SearchHit[];
  /** Searched with the part before it (rules/question-parts.ts, leansOnPart): it may ask of the subject that part was answered from. */
  leans?: boolean;
  similarity?: (texts: readonly string[]) => Promise<number[]>;
}

/** The answer fields of spec 2.7, plus whether it rests on the knowledge base. */
export interface Answer {
  messages: string[];
  quick_replies: string[];
  buttons: { text: string; url: string }[];
  images: string[];
  /** Titles of the articles actually cited. */
  sources: string[];
  /** False when nothing relevant was found: the reply (if any) says the agent does not know. */
  grounded: boolean;
  /** Written by the offline responder in place of the configured model (it failed or had nothing to go on): charged and reported as `essential`. */
  fallback?: boolean;
}

export interface Responder {
  /** Never throws for a bad model answer: falls back or says it does not know. */
  answer(question: Question): Promise<Answer>;
}
