// The AI agent: its configuration (events, decider, read model; also `@support/agent/manifest`),
// the knowledge index, the responders, the rules and the turns. The API's part (routes, MCP) is
// `@support/agent/routes`.
export {
  AGENT_DEFAULTS,
  AGENTS,
  agentDecider,
  AgentCommand,
  AgentDocument,
  AgentEvent,
  agentFeature,
  AgentPatch,
  AgentSettings,
  agentsProjection,
  AgentState,
  applyAgentChanges,
  MODEL_TIERS,
  planLimitError,
  RESPONSE_LENGTHS,
  TONES,
} from './manifest';
export { agentsOf } from './config/read-model';
export * from './knowledge/types';
export * from './responders/types';
export { languageOf, wordsFor, type Language } from './responders/languages';
export { inAnotherLanguage } from './knowledge/language';
export * from './rules/keywords';
export * from './rules/lead';
export * from './rules/insults';
export * from './rules/long-message';
export * from './rules/abuse';
export * from './rules/small-talk';
export * from './rules/follow-up';
export * from './rules/off-topic';
export * from './rules/handoff';
export * from './rules/question-parts';
export * from './rules/unknown-subject';
export * from './rules/unannounced';
export * from './rules/staff-code';
export * from './rules/own-dealings';
export { GroundedResponder, groundedAnswer } from './responders/grounded';
export { relevantHits, judgeHits } from './responders/relevance';
export { LlmResponder, LlmResponderOptions } from './responders/llm';
export { term, terms, tokenize, stem, STOP_WORDS, looksEnglish, MAX_STEMMED_LENGTH } from './knowledge/text';
export { oneEditApart } from './knowledge/spelling';
export { splitArticle, cutLong, MAX_PASSAGE_CHARS } from './knowledge/passages';
export { KnowledgeIndex, DEFAULT_INDEX_OPTIONS } from './knowledge/knowledge-index';
export { VectorMatrix } from './knowledge/vector-matrix';
export { tieRanks, topRows } from './knowledge/top-rows';
export { TermScoreCache } from './knowledge/term-scores';
export { searchableText, compareHits } from './knowledge/ranking';
export { LabelledQuestion, RetrievalQuality, retrievalQuality, distinctIds } from './knowledge/quality';
export { SemanticSearch, searchKnowledge, passageForEmbedding, FUSION_BM25_WEIGHT, MIN_SIMILARITY } from './knowledge/embeddings';
export { E5Model, EmbeddingModel, TextKind, defaultModelDir, missingModelFiles, MODEL_FILES, MAX_QUERY_CHARS, queryText } from './knowledge/e5-model';
export { VectorFile } from './knowledge/vector-file';
export { mentionedIn } from './knowledge/sentences';
export { refersTo } from './knowledge/cross-references';
export * from './service/configs';
export * from './service/knowledge-feed';
export * from './service/turns';
export * from './service/turn-io';
export { Agent, agentOf } from './service/agent';
