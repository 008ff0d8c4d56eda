import { Aggregate, ImportKindSpec } from '@support/application';
import { ID_PREFIX } from '@support/domain';
import { CannedResponseCommand, cannedResponseDecider, CannedResponseState } from './decider';
import { CannedResponseEvent } from './events';
import { CannedResponseInput } from './input';

export const cannedResponseStream = (id: string) => `canned_response-${id}`;
const aggregate: Aggregate<CannedResponseCommand, CannedResponseEvent, CannedResponseState> = { decider: cannedResponseDecider, codec: CannedResponseEvent };

/** Canned responses enter only by the operator's import, under `canned_responses`. */
export const CANNED_RESPONSE_IMPORT: ImportKindSpec<CannedResponseInput, CannedResponseCommand, CannedResponseEvent, CannedResponseState> = {
  key: 'canned_responses',
  input: CannedResponseInput,
  prefix: ID_PREFIX.cannedResponse,
  aggregate,
  stream: cannedResponseStream,
  owner: (s) => (s.exists ? s.workspace_id : null),
  command: (base) => base,
};
