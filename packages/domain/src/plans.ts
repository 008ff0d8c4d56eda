/** Operator interface: plans and what they allow. */
export const PLANS = ['none', 'starter', 'pro', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

export type PlanAccess = 'no_plan' | 'no_api' | 'api';

export const planAccess = (plan: Plan): PlanAccess => (plan === 'none' ? 'no_plan' : plan === 'starter' ? 'no_api' : 'api');

export const isPlan = (value: string): value is Plan => (PLANS as readonly string[]).includes(value);

/** AI model tiers each plan includes (operator interface). */
export const tiersOf = (plan: Plan): readonly ('essential' | 'pro' | 'ultra')[] =>
  plan === 'enterprise' ? ['essential', 'pro', 'ultra'] : plan === 'pro' ? ['essential', 'pro'] : [];

/** AI credits one reply costs, by tier (spec 8). */
export const CREDITS_PER_REPLY = { essential: 1, pro: 4, ultra: 8 } as const;
