import t from 'tap';
import { abuseVerdict, findLead, matchKeyword } from '@support/agent';

t.test('escalation keywords: whole words or their plural, case and accents ignored', async (t) => {
  t.equal(matchKeyword('I want to talk to a HUMAN please', ['human']), 'human');
  t.equal(matchKeyword('Je veux parler à un humain', ['humain']), 'humain');
  t.equal(matchKeyword('Je veux parler à un húmain', ['humain']), 'humain', 'accent in the message');
  t.equal(matchKeyword('Get me a representative!', ['représentative']), 'représentative', 'accent in the keyword');
  t.equal(matchKeyword('that was humane of you', ['human']), null, 'not inside a longer word');
  t.equal(matchKeyword('can I speak to  a   real person?', ['real person']), 'real person', 'a phrase, spacing folded');
  t.equal(matchKeyword('a person', ['real person']), null);
  t.equal(matchKeyword('my chargebacks question: how long do refunds take?', ['chargeback']), 'chargeback', 'the plural too');
  t.equal(matchKeyword('two real persons', ['real person']), 'real person', "a phrase's last word in the plural");
  t.equal(matchKeyword('chargebackers', ['chargeback']), null, 'not a longer word');
  t.equal(matchKeyword('anything', []), null);
});

t.test('lead capture finds an e-mail and a phone number', async (t) => {
  t.strictSame(findLead('reach me at Ann.Lee+x@Example.co.uk tomorrow'), { email: 'Ann.Lee+x@Example.co.uk', phone: null });
  t.strictSame(findLead('call +44 20 7946 0958 after 5'), { email: null, phone: '+44 20 7946 0958' });
  t.strictSame(findLead('my number is (555) 123-4567 and mail a@b.io'), { email: 'a@b.io', phone: '(555) 123-4567' });
  t.equal(findLead('order 12345 was late on 2024-01-02'), null, 'order numbers and dates are not phones');
  t.equal(findLead('no contact here'), null);
});

t.test('abuse protection: the third identical message in a row, or a flood', async (t) => {
  const now = new Date('2026-01-01T12:00:00Z');
  const at = (secondsAgo: number) => new Date(now.getTime() - secondsAgo * 1000).toISOString();
  const same = [
    { sender_type: 'customer', content: 'Refund  NOW', created_at: at(50) },
    { sender_type: 'ai', content: 'Sure…', created_at: at(49) },
    { sender_type: 'customer', content: 'refund now', created_at: at(40) },
  ];
  t.equal(abuseVerdict(same, 'Refund now', now), 'repeated');
  t.equal(abuseVerdict(same.slice(0, 2), 'Refund now', now), null, 'the second time is fine');
  t.equal(abuseVerdict([...same, { sender_type: 'customer', content: 'other', created_at: at(30) }], 'refund now', now), null, 'not in a row');
  const flood = Array.from({ length: 10 }, (_, i) => ({ sender_type: 'customer', content: `q${i}`, created_at: at(55 - i) }));
  t.equal(abuseVerdict(flood, 'q10', now), 'flood');
  t.equal(abuseVerdict(flood.slice(1), 'q10', now), null, 'nine in a minute is fine');
  t.equal(
    abuseVerdict(
      flood.map((m) => ({ ...m, created_at: at(120) })),
      'q10',
      now,
    ),
    null,
    'older than a minute does not count',
  );
});
