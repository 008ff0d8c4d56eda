import { readFileSync } from 'node:fs';
import path from 'node:path';

/** tests/fixtures/eval: the help centres written for evaluation (its README). */
const ROOT = path.resolve(__dirname, '../../fixtures/eval');

/** The split, by help centre (a centre joins one half once): thresholds are chosen on `tuning` only; `heldOut` is measured, never tuned on. */
export const SPLIT = {
  tuning: [
    'nestwise',
    'ledgerly',
    'canopy',
    'freshcrate',
    'shutterloom',
    'vaultnest',
    'harbourline',
    'clayhaven',
    'ironbark',
    'roadwise',
    'fjordline',
    'kestrel',
    'brightwave',
    'skapa',
    'pawsome',
  ],
  heldOut: ['pedalpal', 'lumenlearn', 'tidewater', 'giglane'],
} as const;
export type Half = keyof typeof SPLIT;

export interface EvalArticle {
  id: string;
  title: string;
  content: string;
  status: 'draft' | 'published';
  type: 'public_article' | 'internal_article';
  is_public: boolean;
  ai_agent_enabled: boolean;
}

export type QuestionKind =
  'paraphrase' | 'typo' | 'multi_fact' | 'follow_up' | 'small_talk' | 'off_topic' | 'unanswerable_near' | 'angry' | 'non_english' | 'internal_probe';

export interface EvalQuestion {
  id: string;
  kind: QuestionKind;
  language: 'en' | 'es' | 'de' | 'fr';
  /** The customer's messages in one conversation; the last is the one evaluated. */
  turns: string[];
  /** The public, published, AI-enabled article that answers the last turn; null when none does. */
  article_id: string | null;
  /** Short strings a good answer states verbatim (all of them). */
  facts: string[];
  /** Strings that must never reach the customer (internal, draft or AI-disabled content). */
  forbidden?: string[];
}

export interface Centre {
  name: string;
  articles: EvalArticle[];
  questions: EvalQuestion[];
}

const read = <T>(centre: string, file: string): T => JSON.parse(readFileSync(path.join(ROOT, centre, file), 'utf8')) as T;

export const centre = (name: string): Centre => ({
  name,
  articles: read<EvalArticle[]>(name, 'articles.json'),
  questions: read<EvalQuestion[]>(name, 'questions.json'),
});

export const centresOf = (half: Half): Centre[] => SPLIT[half].map(centre);
