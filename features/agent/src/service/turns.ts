import { abuseVerdict } from '../rules/abuse';
import { asksOfItsOwn, continuesSubject, followUpQuery, mayAskOfItsOwn, mayContinue } from '../rules/follow-up';
import { asksForPerson, handoffReply, noHandoffReply } from '../rules/handoff';
import { matchKeyword } from '../rules/keywords';
import { findLead, Lead, withoutContactDetails } from '../rules/lead';
import { withoutInsults } from '../rules/insults';
import { questionsOfLong } from '../rules/long-message';
import { offTopicReply } from '../rules/off-topic';
import { languageOf } from '../responders/languages';
import { smallTalkOf, smallTalkReply } from '../rules/small-talk';
import { Answer, HistoryEntry, Responder } from '../responders/types';
import type { AgentSettings } from '../config/events';
import { planLimitError } from '../config/decider';
import { CREDITS_PER_REPLY, ID_PREFIX, tiersOf } from '@support/domain';
import { aiMayReply, conversationAggregate, type conversationsOf, conversationStream, ConversationState, TurnOutcome } from '@support/conversations';
import type { Customers, LeadRight } from '@support/customers';
import { Position } from '@support/eventstore';
import { Clock, CommandContext, Deps, DomainFailure, executeAll, failure, idsOf, load, Logger, priorWrite, withoutIdempotency } from '@support/application';
import type { Workspaces } from '@support/workspaces';
import { AgentConfigs } from './configs';
import { KnowledgeFeed } from './knowledge-feed';
import type { AgentMetrics } from './metrics';
import { recordedTurn } from './turn-replay';
import type { EscalationReason, TurnInput, TurnResult } from './turn-io';

/** Passages retrieved for a turn's answer. */
const TURN_HITS = 8;
/** Messages of the conversation handed to the responder (and the abuse rule), newest kept. */
const HISTORY = 50;

const NO_REPLY: Omit<Answer, 'grounded'> = { messages: [], quick_replies: [], buttons: [], images: [], sources: [] };

/**
 * One synchronous agent turn (spec 4.3). The decision is made before anything is written; a
 * reply is paid for first (the balance stream, appended with its revision), then the customer's
 * message and the reply are appended to the conversation in one append. If that append records
 * no reply (a human took the conversation over meanwhile) or fails, the charge is refunded: the
 * charge and the reply are one outcome.
 */
export class AgentTurns {
  constructor(
    private readonly deps: Deps,
    private readonly parts: {
      workspaces: Workspaces;
      configs: AgentConfigs;
      /** The conversations' commands and read models. */
      conversations: ReturnType<typeof conversationsOf>;
      customers: Customers;
      knowledge: KnowledgeFeed;
      responder: Responder;
      clock: Clock;
      log: Logger;
      metrics: AgentMetrics;
    },
  ) {}

  async turn(ctx: CommandContext & { workspaceId: string }, input: TurnInput): Promise<TurnResult> {
    const end = this.parts.metrics.seconds.startTimer();
    const { replayed, ...result } = await this.decideAndRecord(ctx, input);
    end();
    // A retry answered from the log was counted when it first ran.
    if (!replayed) {
      const { metrics } = this.parts;
      metrics.turns.inc({ result: result.escalated ? 'escalated' : result.messages.length ? 'replied' : 'no_reply' });
      if (result.escalation_reason) metrics.escalations.inc({ reason: result.escalation_reason });
    }
    return result;
  }

  private async decideAndRecord(ctx: CommandContext & { workspaceId: string }, input: TurnInput): Promise<TurnResult & { replayed?: boolean }> {
    const { workspaces, configs, log } = this.parts;
    const workspace = await workspaces.get(ctx.workspaceId);
    if (!workspace) throw failure('not_found', 'workspace not found');
    const settings = await configs.current(ctx.workspaceId);
    if (!settings.is_enabled) throw failure('conflict', 'The AI agent is disabled for this workspace; enable it with PATCH /agent {"is_enabled": true}.');
    if (!settings.deployed_channels.api)
      throw failure('conflict', 'The AI agent is not deployed on the API channel; set deployed_channels.api to true with PATCH /agent.');
    const tier = settings.model_tier;
    if (!tiersOf(workspace.plan).includes(tier)) throw new DomainFailure(planLimitError(tier, workspace.plan));

    const existing = input.conversation_id ? await this.existing(ctx.workspaceId, input.conversation_id) : null;
    // A bad `customer` is refused before anything is charged or written.
    if (!existing && input.customer) this.parts.customers.check(ctx.workspaceId, input.customer);
    const ids = idsOf(this.deps, ctx);
    const conversationId = existing?.state.id ?? ids.next(ID_PREFIX.conversation);
    // A retry of a turn that was recorded: nothing is charged or decided again.
    const prior = await priorWrite(this.deps, conversationAggregate, conversationStream(conversationId), ctx);
    if (prior) return { ...(await recordedTurn(this.deps.events, conversationId, ctx.idempotencyKey!, tier, prior)), replayed: true };
    const history = existing?.history ?? [];
    // Ids sort by time: the customer's message takes its id before the reply bubbles take theirs.
    const customerMessageId = ids.next(ID_PREFIX.message);
    const turn = { id: ids.next('turn_') };
    const { outcome, answer } = await this.decide(ctx.workspaceId, settings, turn, existing?.state ?? null, history, input.message, ids, workspace.name);
    const turnId = turn.id;
    // The tier that answered: the configured one, or `essential` when the offline responder stood in for the model.
    const answeredBy = outcome.kind === 'reply' ? outcome.model_tier : tier;
    const cost = outcome.kind === 'reply' ? outcome.credits_used : 0;
    if (outcome.kind === 'reply' && cost > 0) {
      await workspaces.charge(ctx, cost, turnId, conversationId);
      this.parts.metrics.charged.inc({ tier: answeredBy }, cost);
    }
    let replied = false;
    let escalated = false;
    let position: Position | null;
    let replayed = false;
    try {
      // A new conversation is created in the same append as its first turn.
      const creation = existing
        ? []
        : [(await this.parts.conversations.commands.creation(ctx, { id: conversationId, channel: 'api', customer: input.customer })).command];
      const recorded = await executeAll(this.deps, ctx, conversationAggregate, conversationStream(conversationId), [
        ...creation,
        {
          type: 'agent_turn',
          workspace_id: ctx.workspaceId,
          customer_message: { id: customerMessageId, content: input.message, attachments: input.attachments ?? [] },
          outcome,
        },
      ]);
      replayed = recorded.replayed ?? false;
      replied = recorded.events.some((e) => e.type === 'agent.replied');
      escalated = recorded.events.some((e) => e.type === 'agent.escalated');
      position = recorded.position;
      const lead = findLead(input.message);
      if (lead && recorded.state.exists) position = (await this.captureLead(ctx, conversationId, recorded.state.customer_id, lead)) ?? position;
    } finally {
      if (outcome.kind === 'reply' && cost > 0 && !replied) {
        await workspaces.refund(ctx, cost, turnId);
        this.parts.metrics.refunded.inc({ tier: answeredBy }, cost);
        log.info('agent turn recorded no reply; its charge was refunded', { conversation_id: conversationId, turn_id: turnId });
      }
    }
    // The same request raced its own retry, which recorded the turn first: answer that turn.
    if (replayed && position) return { ...(await recordedTurn(this.deps.events, conversationId, ctx.idempotencyKey!, tier, position)), replayed: true };
    const shown = replied && answer ? answer : NO_REPLY;
    const handedOver = escalated && outcome.kind === 'escalate' ? outcome : null;
    return {
      conversation_id: conversationId,
      messages: handedOver?.handoff ? [handedOver.handoff.content] : shown.messages,
      quick_replies: shown.quick_replies,
      buttons: shown.buttons,
      images: shown.images,
      sources: shown.sources,
      escalated,
      escalation_reason: handedOver?.reason ?? null,
      credits_used: replied ? cost : 0,
      model_tier: answeredBy,
      position,
    };
  }

  /** An API conversation of this workspace, with its recent messages (oldest first). */
  private async existing(workspaceId: string, id: string) {
    const { state } = await load(this.deps, conversationAggregate, conversationStream(id));
    if (!state.exists || state.workspace_id !== workspaceId) throw failure('not_found', `No such conversation: '${id}'`);
    if (state.channel !== 'api')
      throw failure('validation', `conversation ${id} is on the ${state.channel} channel; the agent answers over the API only on api conversations`);
    const page = await this.parts.conversations.messages.find(workspaceId, { where: { conversation_id: id }, limit: HISTORY });
    const history = page.items.reverse().map((m) => ({ sender_type: m.sender_type, content: m.content, created_at: m.created_at }));
    return { state, history };
  }

  /** What the agent does with this message; no I/O but retrieval and the responder. */
  private async decide(
    workspaceId: string,
    settings: AgentSettings,
    turn: { id: string },
    state: ConversationState | null,
    history: { sender_type: string; content: string; created_at: string }[],
    message: string,
    ids: Pick<Deps['ids'], 'next'>,
    business: string,
  ): Promise<{ outcome: TurnOutcome; answer: Answer | null }> {
    const none = { outcome: { kind: 'none' } as TurnOutcome, answer: null };
    if (state && !aiMayReply(state)) return none;
    const abuse = abuseVerdict(history, message, this.parts.clock.now());
    if (abuse) {
      this.parts.log.info('agent turn blocked by abuse protection', {
        workspace_id: workspaceId,
        conversation_id: state?.exists ? state.id : null,
        rule: abuse,
      });
      return none;
    }
    // One bubble, free, citing nothing, never a hand-over.
    const freeReply = (reply: string): { outcome: TurnOutcome; answer: Answer } => ({
      outcome: {
        kind: 'reply',
        turn_id: turn.id,
        replies: [{ id: ids.next(ID_PREFIX.message), content: reply }],
        credits_used: 0,
        model_tier: settings.model_tier,
        sources: [],
      },
      answer: { messages: [reply], quick_replies: [], buttons: [], images: [], sources: [], grounded: true },
    });
    // The agent's own words follow the customer's language (languages.ts); the articles are quoted as written.
    const language = languageOf(message);
    // Greetings, thanks and goodbyes get a short reply in the agent's tone.
    const small = smallTalkOf(message);
    if (small) return freeReply(smallTalkReply(small, settings.tone, language));
    // Contact details (a lead) and insults are not words of the question, nor a long message's background; slips are put right; a follow-up is asked in the light of the messages before it.
    const wordsAsked = (text: string) => questionsOfLong(withoutInsults(withoutContactDetails(text)));
    const earlier = history.filter((m) => m.sender_type === 'customer').map((m) => wordsAsked(m.content));
    const own = this.parts.knowledge.spellChecked(workspaceId, wordsAsked(message));
    let asked = followUpQuery(own, earlier);
    const { escalation } = settings;
    // A hand-over tells the customer, in one free bubble, that a person takes over.
    const handOver = (reason: EscalationReason, keyword: string | null) => ({
      outcome: {
        kind: 'escalate',
        turn_id: turn.id,
        reason,
        keyword,
        handoff: { id: ids.next(ID_PREFIX.message), content: handoffReply(settings.tone, language) },
      } as TurnOutcome,
      answer: null,
    });
    if (escalation.enabled) {
      const keyword = matchKeyword(message, escalation.keywords);
      if (keyword !== null) return handOver('keyword', keyword);
      if (asksForPerson(message)) return handOver('customer_asked', null);
      if (escalation.after_replies !== null && state?.exists && state.ai_replies >= escalation.after_replies) {
        return handOver('after_replies', null);
      }
    } else if (asksForPerson(message)) return freeReply(noHandoffReply(settings.tone, business, language));
    // A customer is answered from public articles only: internal ones never reach a reply, its sources, quick replies or a prompt.
    let found = await this.parts.knowledge.customerHits(workspaceId, asked, TURN_HITS);
    // A follow-up in form only ("what about the gate hours?") may ask of a subject of its own.
    if (asked !== own && found.hits.length > 0 && mayAskOfItsOwn(own)) {
      const alone = await this.parts.knowledge.customerHits(workspaceId, own, TURN_HITS);
      if (!alone.offTopic && asksOfItsOwn(own, found.hits, alone.hits)) [asked, found] = [own, alone];
    } else if (asked === own && earlier.length > 0 && found.hits.length > 0 && mayContinue(own)) {
      // A short question that does not point back may still continue the subject before it.
      const withSubject = `${earlier[earlier.length - 1]}\n${own}`;
      const together = await this.parts.knowledge.customerHits(workspaceId, withSubject, TURN_HITS);
      if (!together.offTopic && continuesSubject(own, found.hits, together.hits)) [asked, found] = [withSubject, together];
    }
    // An off-topic request (a joke, stock tips, "are you a bot?") is declined: who answers, and what it helps with.
    if (found.offTopic) return freeReply(offTopicReply(settings.tone, settings.name, business, language));
    const roles: Record<string, HistoryEntry['role']> = { customer: 'customer', ai: 'ai', agent: 'agent' };
    // Two or three questions in one message: each looked up on its own (a follow-up is one question in its context).
    const parts = asked === own ? await this.parts.knowledge.customerParts(workspaceId, own, TURN_HITS) : undefined;
    const answer = await this.parts.responder.answer({
      parts,
      settings,
      business,
      message: asked,
      history: history.filter((m) => roles[m.sender_type]).map((m) => ({ role: roles[m.sender_type], content: m.content })),
      hits: found.hits,
      similarity: this.parts.knowledge.similarityTo(asked),
      passagesOf: (articleId) => this.parts.knowledge.index.passagesOf(workspaceId, articleId),
      referredTo: (passage) => this.parts.knowledge.index.referredTo(workspaceId, passage),
    });
    if (!answer.grounded && escalation.enabled) return handOver('no_answer', null);
    if (answer.messages.length === 0) return none;
    const replies = answer.messages.map((content) => ({ id: ids.next(ID_PREFIX.message), content }));
    const answeredBy = answer.fallback ? 'essential' : settings.model_tier;
    return {
      outcome: { kind: 'reply', turn_id: turn.id, replies, credits_used: CREDITS_PER_REPLY[answeredBy], model_tier: answeredBy, sources: answer.sources },
      answer,
    };
  }

  /** Lead capture: contact details in the message update the conversation's customer (made if needed). */
  private async captureLead(
    ctx: CommandContext & { workspaceId: string },
    conversationId: string,
    customerId: string | null,
    lead: Lead,
  ): Promise<Position | null> {
    // The turn's own append carries the request's key; the lead's writes are its consequences.
    const plain = withoutIdempotency(ctx);
    try {
      // The chat's details may fill in the customer the API client gave, or correct the one its own lead created: no other.
      const { customers, conversations } = this.parts;
      const may: LeadRight =
        customerId === null
          ? 'none'
          : (await conversations.commands.startedWith(conversationId)) === customerId
            ? 'fill'
            : (await customers.createdByLeadIn(customerId, conversationId))
              ? 'replace'
              : 'none';
      const captured = await customers.captureLead(plain, conversationId, customerId, lead, may);
      // The conversation shows the customer's contact details as they are now (a new customer, or an e-mail just learnt).
      const linked = await this.parts.conversations.commands.linkCustomer(plain, conversationId, captured.customerId);
      return linked ?? captured.position;
    } catch (err) {
      // The turn is recorded; a lead that cannot be stored (say, an address another customer
      // holds) must not turn it into an error.
      this.parts.log.warn('lead not captured', { conversation_id: conversationId, error: err instanceof Error ? err.message : String(err) });
      return null;
    }
  }
}
