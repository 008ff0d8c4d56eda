import t from 'tap';
import { asksForPerson, handoffReply } from '@support/agent';

t.test('a customer asking for a person, in several languages; a question about people is not', async (t) => {
  const cases: [string, boolean][] = [
    ['Can I talk to a human?', true],
    ['I want to speak with someone on your staff', true],
    ['get me a real person', true],
    ['human please', true],
    ['¿Puedo hablar con una persona?', true],
    ['Ich möchte mit einem Menschen sprechen', true],
    ['Je veux parler à un conseiller', true],
    ['This is a disgrace, I want a manager NOW, my refund is late', true],
    ['Put me through to your supervisor.', true],
    ['I need a human', true],
    ['Can I speak with the manager?', true],
    // A call asked for is a person asked for (an outsider's trial: it was declined as off-topic)
    ['My number is 416 555 0123, call me about a booking', true],
    ['Can someone ring me back?', true],
    ['please call me', true],
    ['What if the police call me about a ticket?', false],
    ['Will you call me when the car is ready?', false],
    ['How do I add a manager to my team account?', false],
    ['Does the supervisor role see invoices?', false],
    ['I need a manager account for my shop', false],
    ['How many people can use one account?', false],
    ['Is the camera able to detect a person?', false],
    // A question about who answers is not a request for someone else…
    ['are you a real person?', false],
    ['Is this a live human or a bot?', false],
    // …unless it asks for one too
    ['Are you a real person? I want to talk to a human', true],
  ];
  t.strictSame(
    cases.map(([m]) => [m, asksForPerson(m)]),
    cases,
  );
  t.match(handoffReply('professional'), /member of our team/);
});
