import t from 'tap';
import { unnamedOffering, unannounced, type Passage } from '@support/agent';

const passage = (text: string): Passage => ({
  id: 'a1#0',
  index: 0,
  articleId: 'a1',
  workspaceId: 'w',
  title: 'Treatments',
  heading: null,
  text,
  type: 'public_article',
  isPublic: true,
  customerFacing: true,
});
const CLINIC = [passage('We offer teeth whitening and clear aligners. A check-up costs £65. Parking is free for patients.')];

t.test('whether the business sells or offers something no public passage names', async (t) => {
  // Given a clinic whose articles speak of whitening, aligners, check-ups and parking
  const unnamed = [
    'Do you offer dentures?',
    'Do you do botox or lip fillers?',
    'Does your clinic offer implants?',
    'Do you guys rent kayaks?',
    'Do you sell protein shakes or supplements at reception?',
  ];
  const named = [
    'Do you do those clear aligner things?',
    'Do you have parking at the clinic?',
    'Do you offer whitening for teenagers?',
    // Asking for no offering at all
    'Do you have to pay extra?',
    'Do you have any idea when my appointment is?',
    'Do you have an update on my claim?',
    // Not judged: other questions, other languages
    'Is there a waitlist?',
    '¿Ofrecen dentaduras?',
  ];
  // Then only the first are questions the articles cannot answer
  t.strictSame(
    [...unnamed, ...named].map((m) => unnamedOffering(m, () => CLINIC)),
    [...unnamed.map(() => true), ...named.map(() => false)],
  );
  // And unannounced declines them as such
  t.strictSame(
    [unannounced('Do you offer dentures?', () => CLINIC), unannounced('Do you offer dentures?', () => [...CLINIC, passage('Dentures start at £450.')])],
    [true, false],
  );
});
