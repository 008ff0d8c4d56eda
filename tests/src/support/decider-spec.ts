import * as E from 'fp-ts/Either';
import type { Test } from 'tap';
import { Decider, DomainErrorKind, fold } from '@support/domain';

/**
 * Given past events, when a command is decided, then these events (or this error).
 * Pure: no store, no clock.
 */
export const spec =
  <C, Ev, S>(decider: Decider<C, Ev, S>) =>
  (given: readonly Ev[]) => ({
    when: (command: C) => {
      const result = decider.decide(command, fold(decider, given));
      return {
        then: (t: Test, expected: readonly Ev[], message?: string) => {
          if (E.isLeft(result)) return t.fail(`expected events, got ${result.left.kind}: ${result.left.message}`);
          t.strictSame(result.right, expected, message ?? 'then these events');
        },
        thenFails: (t: Test, kind: DomainErrorKind, messageMatch?: RegExp) => {
          if (E.isRight(result)) return t.fail(`expected ${kind}, got events ${JSON.stringify(result.right)}`);
          t.equal(result.left.kind, kind);
          if (messageMatch) t.match(result.left.message, messageMatch);
        },
      };
    },
  });
