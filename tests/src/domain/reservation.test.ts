import t from 'tap';
import { reservationDecider, ReservationEvent } from '@support/domain';
import { spec } from '../support/decider-spec';

const given = spec(reservationDecider);
const claimedByA: ReservationEvent = { type: 'reservation.claimed', data: { owner: 'a' } };

t.test('a free value is claimed', async (t) => given([]).when({ type: 'claim', owner: 'a' }).then(t, [claimedByA]));
t.test('claiming again by the owner is a no-op', async (t) => given([claimedByA]).when({ type: 'claim', owner: 'a' }).then(t, []));
t.test('a held value refuses another owner, naming the holder', async (t) => {
  const r = reservationDecider.decide({ type: 'claim', owner: 'b' }, { owner: 'a' });
  t.strictSame(r, { _tag: 'Left', left: { kind: 'conflict', message: 'value already taken', details: { owner: 'a' } } });
});
t.test('a released value can be claimed by another', async (t) =>
  given([claimedByA, { type: 'reservation.released', data: { owner: 'a' } }])
    .when({ type: 'claim', owner: 'b' })
    .then(t, [{ type: 'reservation.claimed', data: { owner: 'b' } }]),
);
t.test('only the owner releases', async (t) => {
  given([claimedByA]).when({ type: 'release', owner: 'b' }).then(t, []);
  given([claimedByA])
    .when({ type: 'release', owner: 'a' })
    .then(t, [{ type: 'reservation.released', data: { owner: 'a' } }]);
});
t.test('take over only from the named holder', async (t) => {
  given([claimedByA])
    .when({ type: 'take_over', owner: 'b', from: 'a' })
    .then(t, [
      { type: 'reservation.released', data: { owner: 'a' } },
      { type: 'reservation.claimed', data: { owner: 'b' } },
    ]);
  given([claimedByA]).when({ type: 'take_over', owner: 'b', from: 'c' }).thenFails(t, 'conflict');
});
