import { EVERYDAY_REQUESTS } from './everyday-requests';

/*
 * What the off-topic rule (off-topic.ts) compares a customer's message with: requests that no
 * help centre answers, whatever its product. Written for any help centre, none in particular.
 */

/**
 * Chosen in rounds on off-topic probe lists asked of the tuning half's centres
 * (tests/fixtures/eval/off-topic-probes.json), each round measured on a list written before it.
 */
export const CHOSEN_OFF_TOPIC_REQUESTS: readonly string[] = [
  'Tell me a joke.',
  'Write me a poem, a song or a story.',
  'What will the weather be like tomorrow?',
  'Recommend a good movie, TV show, book or song.',
  'Which stocks or cryptocurrency should I invest in?',
  'Give me a recipe for dinner.',
  'Who won the match last night?',
  'What is the capital of this country?',
  'Solve this maths problem for me.',
  'Translate this sentence into another language.',
  'Are you a human or a bot?',
  "What's your favourite colour?",
  'Tell me about a famous person in history.',
  'Help me with my homework.',
  'What time is it right now?',
  'What do you think about politics and the news?',
  'Book me a restaurant, a flight or a hotel.',
  'Give me dating or relationship advice.',
  'Write some code for me.',
  'What is the population of this country?',
  'What is the best way to learn a language, an instrument or a sport?',
  'What is the meaning of life? Is there a god, and what happens when we die?',
  'How much is 12 plus 7, or 9 times 6?',
  'How many planets are in the solar system, and how does gravity work?',
  'When did the Second World War end, and who was the first president?',
  'Give me advice about my health, my diet, my career or my love life.',
  'Which phone, laptop or car should I buy?',
  'What should I name my pet or my baby?',
  'Is it true that the earth is flat?',
  'Explain how this works in physics, chemistry or biology.',
  'Why is the sky blue, and at what temperature does water boil?',
  'Is coffee bad for my health, and how do I lose weight?',
  'Which is better, cats or dogs, tea or coffee?',
  'How do I fix a flat tyre on my car?',
  'What causes earthquakes, and what is a black hole?',
  'How do airplanes stay in the air?',
  "What's the best way to save money?",
  'How do I make my plants grow?',
  'How long should I sleep every night?',
  'How do I stop procrastinating?',
  'What is the biggest animal, why do cats purr, and can dogs eat chocolate?',
  'How do I get rid of a headache? Is it healthy to skip breakfast?',
];

/** Every request a message is compared with. */
export const OFF_TOPIC_REQUESTS: readonly string[] = [...CHOSEN_OFF_TOPIC_REQUESTS, ...EVERYDAY_REQUESTS];

/** The chosen request for a sum, which needs two numbers (off-topic.ts). */
export const SUM_REQUEST = 'How much is 12 plus 7, or 9 times 6?';
/** The lists without it: the same arrays each time, as the model keeps each list's embeddings by identity. */
export const CHOSEN_OFF_TOPIC_REQUESTS_BUT_SUM: readonly string[] = CHOSEN_OFF_TOPIC_REQUESTS.filter((r) => r !== SUM_REQUEST);
export const OFF_TOPIC_REQUESTS_BUT_SUM: readonly string[] = OFF_TOPIC_REQUESTS.filter((r) => r !== SUM_REQUEST);
