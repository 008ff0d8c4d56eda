export * from './knowledge/types';
export * from './responders/types';
export * from './rules/keywords';
export * from './rules/lead';
export * from './rules/abuse';
export * from './rules/small-talk';
export * from './rules/follow-up';
export * from './rules/handoff';
export { GroundedResponder, groundedAnswer, relevantHits } from './responders/grounded';
export { LlmResponder, LlmResponderOptions } from './responders/llm';
export { terms, tokenize, stem, STOP_WORDS } from './knowledge/text';
export { splitArticle, cutLong, MAX_PASSAGE_CHARS } from './knowledge/passages';
export { KnowledgeIndex, KnowledgeIndexOptions, DEFAULT_INDEX_OPTIONS, searchableText, compareHits, Coverage } from './knowledge/knowledge-index';
export { LabelledQuestion, RetrievalQuality, retrievalQuality, distinctIds } from './knowledge/quality';
export {
  Reranker,
  RerankerOptions,
  searchWithReranker,
  defaultModelDir,
  missingModelFiles,
  passageForEmbedding,
  MODEL_FILES,
  RERANK_CANDIDATES,
  FUSION_BM25_WEIGHT,
  MIN_SIMILARITY,
} from './knowledge/embeddings';
