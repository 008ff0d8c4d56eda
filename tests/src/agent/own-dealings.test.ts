import t from 'tap';
import { tellsOwnDealings } from '@support/agent';

/** A customer's own order, payment or account: about the business, never declined as off-topic. */
t.test('a message telling of the customer own order, payment or account', async (t) => {
  for (const message of [
    'I hit buy by mistake twenty minutes ago, is it too late to stop it?',
    'I was charged twice this month, why?',
    "I've been billed for a plan I never chose",
    'We just booked a room for Friday, can we change it?',
    'Where is my parcel?',
    'My subscription renewed without asking me!',
    "I'm going to sue you, this is fraud",
  ])
    t.strictSame(tellsOwnDealings(message), true, message);
});

t.test('a first-person message about something else is not', async (t) => {
  for (const message of [
    'I am bored, what should I watch tonight?',
    'I want a house, what is a good mortgage rate?',
    'Tell me a joke',
    'What is my horoscope?',
  ])
    t.strictSame(tellsOwnDealings(message), false, message);
});
