import * as t from 'io-ts';
import { CHANNELS, ESCALATION_REASONS } from '@support/conversations';
import { arrayOf, bool, EXAMPLE_ID, int, literal, nullable, oneOf, str, struct } from '@support/http';
import { AgentSettings, MODEL_TIERS, RESPONSE_LENGTHS, TONES } from '../config/events';

/** Channels the agent can be deployed on: the six conversation channels and the MCP server. */
const DEPLOYABLE = [...CHANNELS, 'mcp'] as const;
const channelFlags = <Req extends boolean>(required: Req) => {
  const flags = Object.fromEntries(
    DEPLOYABLE.map((c) => [c, bool(c === 'mcp' ? 'The MCP server (POST /mcp); turning it on also turns on api' : `Deployed on ${c}`)]),
  ) as Record<(typeof DEPLOYABLE)[number], ReturnType<typeof bool>>;
  return required
    ? struct(
        flags,
        {},
        { title: 'deployed_channels', example: { api: true, widget: true, whatsapp: false, facebook: false, instagram: false, telegram: false, mcp: true } },
      )
    : struct({}, flags, { title: 'deployed_channels_patch', description: 'Merged key by key into the stored map' });
};

const escalationFields = {
  enabled: bool(),
  keywords: arrayOf(str({ min: 1, max: 100, notBlank: true }), { max: 50, description: 'Whole words or phrases; case and accents are ignored' }),
  after_replies: nullable(int({ min: 1, max: 10, description: 'Hand over once this many AI replies were given in a conversation' })),
};

/** Spec 2.6. */
export const AgentResource = struct(
  {
    object: literal('agent'),
    name: str(),
    avatar_url: nullable(str()),
    is_enabled: bool(),
    tone: oneOf(TONES),
    response_length: oneOf(RESPONSE_LENGTHS),
    custom_instructions: nullable(str()),
    model_tier: oneOf(MODEL_TIERS),
    escalation: struct(escalationFields, {}, { title: 'escalation', example: { enabled: true, keywords: ['refund', 'lawyer'], after_replies: 5 } }),
    deployed_channels: channelFlags(true),
  },
  {},
  {
    title: 'agent',
    example: {
      object: 'agent',
      name: 'Bea',
      avatar_url: null,
      is_enabled: true,
      tone: 'friendly',
      response_length: 'balanced',
      custom_instructions: 'Sign off with the store name, Acme Bikes.',
      model_tier: 'pro',
      escalation: { enabled: true, keywords: ['refund', 'lawyer'], after_replies: 5 },
      deployed_channels: { api: true, widget: true, whatsapp: false, facebook: false, instagram: false, telegram: false, mcp: true },
    },
  },
);
export type AgentResource = t.TypeOf<typeof AgentResource>;

/** PATCH /agent: any of the writable fields (spec 4.3); `escalation` may carry only some of its own. */
export const AgentPatchBody = struct(
  {},
  {
    name: str({ min: 1, max: 100, notBlank: true }),
    is_enabled: bool(),
    tone: oneOf(TONES),
    response_length: oneOf(RESPONSE_LENGTHS),
    custom_instructions: nullable(str({ max: 2000 })),
    model_tier: oneOf(MODEL_TIERS, 'essential and pro on the pro plan; ultra also on enterprise'),
    escalation: struct({}, escalationFields, { title: 'escalation_patch' }),
    deployed_channels: channelFlags(false),
  },
  { title: 'agent_patch', example: { is_enabled: true, tone: 'professional', escalation: { keywords: ['refund'] }, deployed_channels: { mcp: true } } },
);

export const toAgent = (s: AgentSettings): AgentResource => ({
  object: 'agent',
  name: s.name,
  avatar_url: s.avatar_url,
  is_enabled: s.is_enabled,
  tone: s.tone,
  response_length: s.response_length,
  custom_instructions: s.custom_instructions,
  model_tier: s.model_tier,
  escalation: { enabled: s.escalation.enabled, keywords: s.escalation.keywords, after_replies: s.escalation.after_replies },
  deployed_channels: Object.fromEntries(DEPLOYABLE.map((c) => [c, s.deployed_channels[c] ?? false])),
});

/** Spec 2.7. */
export const AgentResponseResource = struct(
  {
    object: literal('agent_response'),
    conversation_id: str(),
    messages: arrayOf(str(), { description: 'Reply bubbles in display order; empty when no reply was produced' }),
    quick_replies: arrayOf(str()),
    buttons: arrayOf(struct({ text: str(), url: str({ format: 'uri' }) }, {}, { title: 'button' })),
    images: arrayOf(str()),
    sources: arrayOf(str({ description: 'Title of a cited knowledge base article' })),
    escalated: bool('True when the agent handed the conversation to a human in this turn (messages then holds the one hand-over bubble)'),
    escalation_reason: nullable(
      oneOf(
        ESCALATION_REASONS,
        'Why it handed over: an escalation keyword, the after_replies limit, no answer in the help centre, or the customer asked for a person',
      ),
    ),
    credits_used: int({ min: 0, description: '0 when no billable reply was produced' }),
    model_tier: oneOf(MODEL_TIERS),
  },
  {},
  {
    title: 'agent_response',
    example: {
      object: 'agent_response',
      conversation_id: EXAMPLE_ID.conversation,
      messages: ['Refunds go back to the card you paid with.', 'Once issued, they take 3 to 5 business days to appear on your statement.'],
      quick_replies: ['Tell me about "Changing your plan"'],
      buttons: [],
      images: [],
      sources: ['How refunds work'],
      escalated: false,
      escalation_reason: null,
      credits_used: 4,
      model_tier: 'pro',
    },
  },
);
export type AgentResponseResource = t.TypeOf<typeof AgentResponseResource>;

/** Spec 2.7a: a passage of a knowledge base article. */
export const KnowledgeResultResource = struct(
  {
    object: literal('knowledge_result'),
    knowledge_base_id: str({ description: 'The article id' }),
    filename: str({ description: 'The article title' }),
    text: str({ description: 'The passage' }),
    type: oneOf(['public_article', 'internal_article'] as const, "The article's type: an agent turn answers customers from public articles only"),
    is_public: bool("Whether the article is public (a public_article marked is_public): only these reach a customer's answer"),
  },
  {},
  {
    title: 'knowledge_result',
    example: {
      object: 'knowledge_result',
      knowledge_base_id: EXAMPLE_ID.article,
      filename: 'How refunds work',
      text: 'Once issued, refunds take 3 to 5 business days to appear on your statement.',
      type: 'public_article',
      is_public: true,
    },
  },
);
