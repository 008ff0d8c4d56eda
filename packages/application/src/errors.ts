import type { DomainError } from '@support/domain';

/** A rule the caller broke: carried up to the HTTP layer, which maps `kind` to a status. */
export class DomainFailure extends Error {
  constructor(readonly error: DomainError) {
    super(error.message);
    this.name = 'DomainFailure';
  }
}

export const failure = (kind: DomainError['kind'], message: string, details?: Record<string, unknown>) =>
  new DomainFailure({ kind, message, ...(details ? { details } : {}) });
