/** Spec section 5: every scope a key can carry. */
export const SCOPES = [
  'agent:chat',
  'agent:read',
  'agent:write',
  'conversations:read',
  'conversations:write',
  'messages:write',
  'customers:read',
  'customers:write',
  'tickets:read',
  'knowledge_base:read',
  'channels:read',
  'webhooks:manage',
] as const;
export type Scope = (typeof SCOPES)[number];

export const ACCESS_LEVELS = ['full', 'read_only', 'chat_only'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

/** Operator interface: what each access level grants. */
export const scopesForAccess = (access: AccessLevel): Scope[] => {
  switch (access) {
    case 'full':
      return [...SCOPES];
    case 'read_only':
      return SCOPES.filter((s) => s.endsWith(':read'));
    case 'chat_only':
      return ['agent:chat', 'agent:read'];
  }
};

export const isScope = (value: string): value is Scope => (SCOPES as readonly string[]).includes(value);
