import { importedRecordKind } from '@support/application';
import { ID_PREFIX } from '@support/domain';
import { cannedResponseDecider, CannedResponseState } from './decider';
import { CannedResponseEvent } from './events';
import { CannedResponseInput } from './input';

export const cannedResponseStream = (id: string) => `canned_response-${id}`;

/** Canned responses enter only by the operator's import, under `canned_responses`. */
export const CANNED_RESPONSE_IMPORT = importedRecordKind<CannedResponseInput, CannedResponseEvent, CannedResponseState>({
  key: 'canned_responses',
  input: CannedResponseInput,
  prefix: ID_PREFIX.cannedResponse,
  aggregate: { decider: cannedResponseDecider, codec: CannedResponseEvent },
  stream: cannedResponseStream,
});
