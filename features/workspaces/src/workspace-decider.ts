import * as E from 'fp-ts/Either';
import { changedFields, Decider, fail, isBlank, isPlan, Plan } from '@support/domain';
import { WorkspaceEvent } from './workspace-events';

export interface WorkspaceSettings {
  plan: Plan;
  credits: number;
  sla_tracking: boolean;
  email?: string | null;
}
export type WorkspaceState = { exists: false } | ({ exists: true; id: string; name: string; slug: string } & WorkspaceSettings);

export type WorkspaceCommand =
  | { type: 'create'; id: string; name: string; slug: string; plan: string; credits: number; sla_tracking: boolean; email?: string | null }
  | { type: 'update'; changes: { plan?: string; credits?: number; sla_tracking?: boolean; email?: string | null } }
  /** Takes a reply's price from the balance; never below zero. */
  | { type: 'charge'; amount: number; turn_id: string; conversation_id: string }
  | { type: 'refund'; amount: number; turn_id: string };

export const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

/** Turns a display name into a slug candidate: lowercase ASCII words joined by dashes. */
export const slugify = (name: string): string =>
  name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '') || 'workspace';

const EMAIL = /^[^\s@]+@[^\s@]+$/;

const checkSettings = (s: { plan?: string; credits?: number; email?: string | null }) => {
  if (s.email !== undefined && s.email !== null && !EMAIL.test(s.email)) return fail('validation', `email "${s.email}" is not an e-mail address`);
  if (s.plan !== undefined && !isPlan(s.plan)) return fail('validation', `plan must be one of none, starter, pro, enterprise (got "${s.plan}")`);
  if (s.credits !== undefined && !(Number.isSafeInteger(s.credits) && s.credits >= 0)) return fail('validation', 'credits must be a whole number ≥ 0');
  return E.right(undefined);
};

export const workspaceDecider: Decider<WorkspaceCommand, WorkspaceEvent, WorkspaceState> = {
  initialState: { exists: false },
  decide(command, state) {
    switch (command.type) {
      case 'create': {
        if (state.exists) return fail('conflict', `workspace ${command.id} already exists`);
        if (isBlank(command.name)) return fail('validation', 'name must not be empty');
        if (!SLUG.test(command.slug)) return fail('validation', 'slug must be lowercase letters, digits and dashes (1 to 64)');
        const invalid = checkSettings(command);
        if (E.isLeft(invalid)) return invalid;
        const { id, name, slug, credits, sla_tracking, email } = command;
        return E.right([
          { type: 'workspace.created', data: { id, name: name.trim(), slug, plan: command.plan as Plan, credits, sla_tracking, ...(email ? { email } : {}) } },
        ]);
      }
      case 'update': {
        if (!state.exists) return fail('not_found', 'workspace not found');
        const invalid = checkSettings(command.changes);
        if (E.isLeft(invalid)) return invalid;
        const changes = changedFields<WorkspaceSettings>(state, command.changes as Partial<WorkspaceSettings>);
        return E.right(Object.keys(changes).length ? [{ type: 'workspace.updated', data: changes }] : []);
      }
      case 'charge': {
        if (!state.exists) return fail('not_found', 'workspace not found');
        if (state.credits < command.amount) {
          return fail('plan_limit', `Out of AI credits: this reply costs ${command.amount} and the balance is ${state.credits}.`, {
            credits: state.credits,
            required: command.amount,
          });
        }
        const { amount, turn_id, conversation_id } = command;
        return E.right([{ type: 'workspace.credits_charged', data: { amount, turn_id, conversation_id } }]);
      }
      case 'refund': {
        if (!state.exists) return fail('not_found', 'workspace not found');
        return E.right([{ type: 'workspace.credits_refunded', data: { amount: command.amount, turn_id: command.turn_id } }]);
      }
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'workspace.created':
        return { exists: true, ...event.data };
      case 'workspace.updated':
        return state.exists ? { ...state, ...event.data } : state;
      case 'workspace.credits_charged':
        return state.exists ? { ...state, credits: state.credits - event.data.amount } : state;
      case 'workspace.credits_refunded':
        return state.exists ? { ...state, credits: state.credits + event.data.amount } : state;
    }
  },
};
