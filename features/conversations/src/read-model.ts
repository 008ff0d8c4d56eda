import { type Application, perApplication, Scoped } from '@support/application';
import { customersOf } from '@support/customers';
import { Conversations } from './commands';
import { CONVERSATIONS, type ConversationDocument } from './conversation-projection';
import { MESSAGES, type MessageDocument } from './message-projection';

/** The conversations' commands and read models (conversations, messages) over one application's ports. */
export const conversationsOf = perApplication((app: Application) => ({
  // A conversation on a kind of channel belongs to the workspace's newest channel of that kind.
  commands: new Conversations(app.deps, customersOf(app).commands, app.catalog.channelOf(app.engines.reads)),
  reads: new Scoped(app.engines.reads.collection<ConversationDocument>(CONVERSATIONS)),
  messages: new Scoped(app.engines.reads.collection<MessageDocument>(MESSAGES)),
}));
