import t, { type Test } from 'tap';
import { workspacesOf } from '@support/workspaces';
import { conversationAggregate, conversationsOf, conversationStream } from '@support/conversations';
import { Agent, type Answer, type Question, type Responder } from '@support/agent';
import { Application, keyedIds, load as loadStream, loadConfig, silentLogger } from '@support/application';
import { removeDir, tempDir } from '../support/service';
import { CATALOG } from '@support/catalog';

// The charge and the reply are one outcome: a turn whose reply is not recorded charges nothing.

const REPLY: Answer = { messages: ['Here is how.'], quick_replies: [], buttons: [], images: [], sources: ['Guide'], grounded: true };

/** A responder that lets the test act while the turn is between deciding and recording. */
class MidTurn implements Responder {
  during: () => Promise<void> = async () => {};
  async answer(_q: Question): Promise<Answer> {
    await this.during();
    return REPLY;
  }
}

const setUp = async (t: Test) => {
  const dir = tempDir('turns-');
  const responder = new MidTurn();
  const app = new Application({ catalog: CATALOG, config: loadConfig({ DATA_DIR: dir }), log: silentLogger, projector: true });
  const agent = new Agent(app, { responder });
  await app.start();
  t.teardown(async () => {
    await app.stop();
    removeDir(dir);
  });
  const { workspace } = await workspacesOf(app).commands.create({ workspaceId: null, actor: 'test', requestId: null }, { name: 'Turns', credits: 10 });
  const ctx = { workspaceId: workspace.id, actor: 'key_test', requestId: null };
  await agent.configs.configure(ctx, 'pro', { is_enabled: true, deployed_channels: { api: true } });
  const balance = async () => (await workspacesOf(app).commands.get(workspace.id))!.credits;
  const ledger = async () =>
    (await app.engines.events.readStream(`workspace-${workspace.id}`)).map((e) => e.type).filter((type) => type.startsWith('workspace.credits'));
  return { app, agent, ctx, responder, balance, ledger };
};

t.test('a human who takes the conversation over mid-turn wins: no reply, the charge is refunded', async (t) => {
  const { app, agent, ctx, responder, balance, ledger } = await setUp(t);
  const first = await agent.turns.turn(ctx, { message: 'How do refunds work?' });
  t.strictSame(first.messages, REPLY.messages);
  t.equal(await balance(), 9);
  responder.during = () =>
    conversationsOf(app)
      .commands.update(ctx, first.conversation_id, { assignee: 'user_1' })
      .then(() => undefined);
  const second = await agent.turns.turn(ctx, { message: 'and then?', conversation_id: first.conversation_id });
  t.strictSame({ messages: second.messages, credits_used: second.credits_used, sources: second.sources }, { messages: [], credits_used: 0, sources: [] });
  t.equal(await balance(), 9, 'the balance is as before the turn');
  t.strictSame(await ledger(), ['workspace.credits_charged', 'workspace.credits_charged', 'workspace.credits_refunded'], 'charged, then given back');
  const types = (await app.engines.events.readStream(`conversation-${first.conversation_id}`)).map((e) => e.type);
  t.equal(types.filter((type) => type === 'agent.replied').length, 1, 'only the first turn replied');
  t.equal(types[types.length - 1], 'message.created', "the customer's message is recorded");
});

t.test('a turn whose recording fails after the charge gives the charge back and fails', async (t) => {
  const { app, agent, ctx, responder, balance, ledger } = await setUp(t);
  const first = await agent.turns.turn(ctx, { message: 'How do refunds work?' });
  // A store failure after the charge, injected: the next append to the conversation throws.
  const append = app.engines.events.append.bind(app.engines.events);
  responder.during = async () => {
    app.engines.events.append = async (stream, events, expected) => {
      if (stream.startsWith('conversation-')) throw new Error('disk full');
      return append(stream, events, expected);
    };
  };
  await t.rejects(agent.turns.turn(ctx, { message: 'again', conversation_id: first.conversation_id }), /disk full/);
  app.engines.events.append = append;
  t.equal(await balance(), 9, 'nothing charged for the failed turn');
  t.strictSame(await ledger(), ['workspace.credits_charged', 'workspace.credits_charged', 'workspace.credits_refunded']);
});

t.test('under an Idempotency-Key the turn alone carries the key: its refund and its lead are still written', async (t) => {
  const { app, agent, ctx, responder, balance, ledger } = await setUp(t);
  const keyed = (key: string) => ({ ...ctx, idempotencyKey: key, ids: keyedIds(key, Date.parse('2026-11-25T10:00:00Z')) });
  // A lead in a keyed turn's message: the customer is made and linked to the conversation.
  const first = await agent.turns.turn(keyed('k1'), { message: 'How do refunds work? I am dora@example.com' });
  const { state } = await load(app, first.conversation_id);
  t.equal(state.exists && state.customer_email, 'dora@example.com', 'the conversation shows the captured e-mail');
  // A human takes over during a keyed turn: its charge is given back.
  responder.during = () =>
    conversationsOf(app)
      .commands.update(ctx, first.conversation_id, { assignee: 'user_1' })
      .then(() => undefined);
  await agent.turns.turn(keyed('k2'), { message: 'and then?', conversation_id: first.conversation_id });
  t.equal(await balance(), 9, 'the keyed turn that recorded no reply was refunded');
  t.strictSame(await ledger(), ['workspace.credits_charged', 'workspace.credits_charged', 'workspace.credits_refunded']);
});

const load = async (app: Application, conversationId: string) =>
  loadStream({ events: app.engines.events }, conversationAggregate, conversationStream(conversationId));
