/** Operator interface: plans and what they allow. */
export const PLANS = ['none', 'starter', 'pro', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

export type PlanAccess = 'no_plan' | 'no_api' | 'api';

export const planAccess = (plan: Plan): PlanAccess =>
  plan === 'none' ? 'no_plan' : plan === 'starter' ? 'no_api' : 'api';

export const isPlan = (value: string): value is Plan => (PLANS as readonly string[]).includes(value);
