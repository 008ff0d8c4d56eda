import * as t from 'io-ts';
import { eventCodec, nullable } from '@support/domain';

export const TONES = ['professional', 'friendly', 'casual'] as const;
export const RESPONSE_LENGTHS = ['concise', 'balanced', 'detailed'] as const;
export const MODEL_TIERS = ['essential', 'pro', 'ultra'] as const;
export const Tone = t.keyof({ professional: null, friendly: null, casual: null });
export const ResponseLength = t.keyof({ concise: null, balanced: null, detailed: null });
export const ModelTier = t.keyof({ essential: null, pro: null, ultra: null });
export type ModelTier = t.TypeOf<typeof ModelTier>;

export const Escalation = t.type({ enabled: t.boolean, keywords: t.array(t.string), after_replies: nullable(t.number) });
export type Escalation = t.TypeOf<typeof Escalation>;

/** Spec 2.6 without `object`: the whole configuration of a workspace's agent. */
export const AgentSettings = t.type({
  name: t.string,
  avatar_url: nullable(t.string),
  is_enabled: t.boolean,
  tone: Tone,
  response_length: ResponseLength,
  custom_instructions: nullable(t.string),
  model_tier: ModelTier,
  escalation: Escalation,
  deployed_channels: t.record(t.string, t.boolean),
});
export type AgentSettings = t.TypeOf<typeof AgentSettings>;

/** Only the fields a PATCH changed, already merged (deployed_channels, escalation) with the stored ones. */
export const AgentChanges = t.partial(AgentSettings.props);
export type AgentChanges = t.TypeOf<typeof AgentChanges>;

export const AgentConfigured = eventCodec('agent.configured', t.type({ workspace_id: t.string, changes: AgentChanges }));

export const AgentEvent = AgentConfigured;
export type AgentEvent = t.TypeOf<typeof AgentEvent>;
