import { z } from 'zod';
import { CHANNELS, PRIORITIES } from '@support/conversations';
import { pageParams } from '@support/http';
import { CONVERSATION_ID } from '../http/routes';

/**
 * What an LLM client reads about the MCP tools: what each is for and when to use it, every
 * argument described with the bounds the service enforces (the REST codecs validate again),
 * the shape of what each returns (`structuredContent`), and which only read.
 */
export const INSTRUCTIONS = [
  "This server is a customer-support workspace's help desk.",
  "To answer a customer, call send_message with their words: the workspace's AI agent replies from the public help centre, charges credits only for a reply, and may hand the conversation to a person (escalated true).",
  'Pass conversation_id from a previous send_message to continue the same conversation.',
  'To look something up without answering anyone, call search_knowledge.',
  'get_conversation and list_conversations read conversations and their messages.',
].join(' ');

/** The service's form of a conversation id (the REST codec's pattern). */
const conversationIdArg = z.string().regex(new RegExp(String(CONVERSATION_ID.jsonSchema.pattern)));

const customer = z
  .object({
    email: z.string().max(320).describe("The customer's e-mail address"),
    phone: z.string().max(64).describe("The customer's phone number, e.g. +15550100"),
    name: z.string().max(255).describe("The customer's name"),
    external_id: z.string().min(1).max(255).describe("Your system's id for the customer"),
  })
  .partial()
  .describe('Who is writing: matched to an existing customer by external_id, email or phone, else created. Give at least one of those three.');

const conversation = z
  .object({
    object: z.literal('conversation'),
    id: z.string(),
    channel: z.enum(CHANNELS),
    status: z.enum(['open', 'closed']),
    priority: z.enum(PRIORITIES),
    customer_id: z.string().nullable(),
    assignee: z.string().nullable(),
    message_count: z.number().int(),
    created_at: z.string(),
  })
  .passthrough();

const message = z
  .object({
    object: z.literal('message'),
    id: z.string(),
    sender_type: z.enum(['customer', 'agent', 'ai', 'system']),
    content: z.string(),
    created_at: z.string(),
  })
  .passthrough();

export const TOOLS = {
  send_message: {
    title: 'Answer a customer with the AI agent',
    description:
      "One turn of the workspace's AI agent, as POST /agent/messages: records the customer's message, and the agent's reply bubbles (grounded in public help-centre articles, with their titles in sources) or its hand-over to a person (escalated). Starts a new api conversation unless conversation_id is given. Charges the workspace's credits only for a reply.",
    readOnly: false,
    input: {
      message: z.string().min(1).max(10_000).describe("The customer's message, as they wrote it"),
      conversation_id: conversationIdArg.optional().describe('An api conversation to continue (from an earlier send_message); omit to start one'),
      customer: customer.optional(),
    },
    output: {
      object: z.literal('agent_response'),
      conversation_id: z.string().describe('The conversation the turn was recorded in'),
      messages: z.array(z.string()).describe('The reply bubbles, in order; empty when the agent stayed silent or handed over'),
      quick_replies: z.array(z.string()).describe('Suggested next messages for the customer'),
      buttons: z.array(z.object({ text: z.string(), url: z.string() })).describe('Links from the cited articles'),
      images: z.array(z.string()).describe('Image URLs from the cited articles'),
      sources: z.array(z.string()).describe('Titles of the articles the reply quotes'),
      escalated: z.boolean().describe('True when the conversation was handed to a person (messages then holds the hand-over bubble)'),
      escalation_reason: z.enum(['keyword', 'after_replies', 'no_answer', 'customer_asked']).nullable().describe('Why it handed over'),
      credits_used: z.number().int(),
      model_tier: z.enum(['essential', 'pro', 'ultra']),
    },
  },
  search_knowledge: {
    title: 'Search the help centre',
    description:
      "Searches the workspace's published, AI-enabled knowledge-base articles, as POST /agent/search: passages best first, each with its article's id, title, type and whether it is public. Internal articles are included and marked; never show them to a customer.",
    readOnly: true,
    input: {
      query: z.string().min(1).max(1000).describe('What to look for, in words'),
      top_k: z.number().int().min(1).max(20).optional().describe('How many passages (1 to 20, default 8)'),
    },
    output: {
      object: z.literal('list'),
      data: z.array(
        z.object({
          object: z.literal('knowledge_result'),
          knowledge_base_id: z.string(),
          filename: z.string().describe('The article title'),
          text: z.string().describe('The passage, in markdown'),
          type: z.enum(['public_article', 'internal_article']),
          is_public: z.boolean(),
        }),
      ),
      has_more: z.boolean(),
      next_cursor: z.string().nullable(),
    },
  },
  get_conversation: {
    title: 'Read a conversation',
    description: 'A conversation with its latest messages (newest first, up to 50), as GET /conversations/{id} and its messages.',
    readOnly: true,
    input: { conversation_id: conversationIdArg.describe('The conversation id (conv_…)') },
    output: { ...conversation.shape, messages: z.array(message).describe('Newest first, up to 50') },
  },
  list_conversations: {
    title: 'List conversations',
    description: 'Conversations of the workspace, newest first, as GET /conversations; page with starting_after.',
    readOnly: true,
    input: {
      limit: z.number().int().min(1).max(100).optional().describe('Page size, 1 to 100 (default 20)'),
      starting_after: z
        .string()
        .regex(new RegExp(String(pageParams.starting_after.jsonSchema.pattern)))
        .optional()
        .describe('The last id of the previous page, to get the next one'),
      status: z.enum(['open', 'closed']).optional(),
      channel: z.enum(CHANNELS).optional(),
      customer_id: z.string().max(100).optional().describe("Only this customer's conversations (cus_…)"),
    },
    output: {
      object: z.literal('list'),
      data: z.array(conversation),
      has_more: z.boolean(),
      next_cursor: z.string().nullable(),
    },
  },
} as const;
