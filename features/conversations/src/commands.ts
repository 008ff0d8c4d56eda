import { Position } from '@support/eventstore';
import { ID_PREFIX } from '@support/domain';
import { Aggregate, ChannelResolver, CommandContext, Deps, execute, idsOf, load } from '@support/application';
import { customerDecider, CustomerEvent, CustomerInput, Customers, customerStream } from '@support/customers';
import { ConversationCommand, conversationDecider, ConversationState, firstMessageWith } from './decider';
import { ConversationChannel, ConversationEvent } from './events';

export const conversationAggregate: Aggregate<ConversationCommand, ConversationEvent, ConversationState> = {
  decider: conversationDecider,
  codec: ConversationEvent,
};
export const conversationStream = (id: string) => `conversation-${id}`;

type Update = Extract<ConversationCommand, { type: 'update' }>['changes'];
export interface MessageInput {
  content: string;
  attachments?: unknown[];
  channel_metadata?: Record<string, unknown>;
  client_message_id?: string;
}

export class Conversations {
  constructor(
    private readonly deps: Deps,
    private readonly customers: Customers,
    private readonly channelOf: ChannelResolver,
  ) {}

  /** Starts a conversation; a `customer` given is created or matched like POST /customers. */
  async create(
    ctx: CommandContext & { workspaceId: string },
    input: { channel?: ConversationChannel; customer?: CustomerInput; metadata?: Record<string, unknown> },
  ) {
    const { id, command } = await this.creation(ctx, input);
    const outcome = await execute(this.deps, ctx, conversationAggregate, conversationStream(id), command);
    return { id, position: outcome.position };
  }

  /**
   * The command that creates a conversation, after the customer given is created or matched;
   * for a caller that appends it with more (an agent turn starting a conversation).
   */
  async creation(
    ctx: CommandContext & { workspaceId: string },
    input: { id?: string; channel?: ConversationChannel; customer?: CustomerInput; metadata?: Record<string, unknown> },
  ) {
    let customer: { id: string; name: string | null; email: string | null } | null = null;
    if (input.customer) {
      const { id } = await this.customers.createOrMatch(ctx, input.customer);
      const { state } = await load(this.deps, { decider: customerDecider, codec: CustomerEvent }, customerStream(id));
      customer = state.exists ? { id, name: state.name, email: state.email } : { id, name: null, email: null };
    }
    const channel = input.channel ?? 'api';
    const id = input.id ?? idsOf(this.deps, ctx).next(ID_PREFIX.conversation);
    const command: ConversationCommand = {
      type: 'create',
      id,
      workspace_id: ctx.workspaceId,
      channel,
      channel_id: await this.channelOf(ctx.workspaceId, channel),
      customer_id: customer?.id ?? null,
      customer_name: customer?.name ?? null,
      customer_email: customer?.email ?? null,
      external_id: null,
      metadata: input.metadata ?? {},
    };
    return { id, command };
  }

  async update(ctx: CommandContext & { workspaceId: string }, id: string, changes: Update) {
    const outcome = await execute(this.deps, ctx, conversationAggregate, conversationStream(id), {
      type: 'update',
      workspace_id: ctx.workspaceId,
      at: this.deps.clock.now().toISOString(),
      changes,
    });
    return { id, position: outcome.position };
  }

  /** The customer a conversation was started with (the API client's `customer`), if any. */
  async startedWith(id: string): Promise<string | null> {
    const [first] = await this.deps.events.readStream(conversationStream(id), 0);
    return first?.type === 'conversation.created' ? ((first.data as { customer_id?: string | null }).customer_id ?? null) : null;
  }

  /** Links a conversation that had no customer to one (a lead the agent captured). */
  async linkCustomer(ctx: CommandContext & { workspaceId: string }, id: string, customerId: string): Promise<Position | null> {
    const { state } = await load(this.deps, { decider: customerDecider, codec: CustomerEvent }, customerStream(customerId));
    const outcome = await execute(this.deps, ctx, conversationAggregate, conversationStream(id), {
      type: 'link_customer',
      workspace_id: ctx.workspaceId,
      customer_id: customerId,
      customer_name: state.exists ? state.name : null,
      customer_email: state.exists ? state.email : null,
    });
    return outcome.position;
  }

  /**
   * Posts an agent message. A `client_message_id` seen before in this conversation returns
   * the first message's id and writes nothing.
   */
  async postMessage(ctx: CommandContext & { workspaceId: string }, conversationId: string, input: MessageInput) {
    const id = idsOf(this.deps, ctx).next(ID_PREFIX.message);
    const outcome = await execute(this.deps, ctx, conversationAggregate, conversationStream(conversationId), {
      type: 'post_message',
      workspace_id: ctx.workspaceId,
      id,
      sender_type: 'agent',
      sender_id: ctx.actor,
      visibility: 'public',
      content: input.content,
      attachments: input.attachments ?? [],
      channel_metadata: input.channel_metadata ?? {},
      client_message_id: input.client_message_id ?? null,
    });
    if (outcome.events.length === 0 && outcome.state.exists && input.client_message_id) {
      return { id: firstMessageWith(outcome.state, input.client_message_id)!, created: false, position: null };
    }
    return { id, created: true, position: outcome.position };
  }
}
