import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { helpCentre, kbId } from '../support/agent';
import { serviceFixture } from '../support/fixture';

// A customer's everyday words for what the help centre names otherwise, through the API (with
// the embedding model, as `npm start` runs). The articles are six of the seventeenth unseen
// centre's (Saltmarsh Ferries, written by an outsider), where these questions were missed.

const e2e = serviceFixture({ tenant: { name: 'Words' } });
const FERRY = (JSON.parse(readFileSync(path.resolve(__dirname, '../../fixtures/knowledge/ferry-articles.json'), 'utf8')) as object[]).map((a, i) => ({
  ...a,
  id: kbId(200 + i),
}));

t.test("something of the customer's left somewhere is asked of lost property, a gale of the weather policy", async (t) => {
  // Given the ferry's help centre, where the customer's words are closest to the contact article
  const ws = await helpCentre(e2e, 'Ferries', FERRY, { response_length: 'concise' });
  // When a customer says what they left on the ferry
  const r = await ws.api.post('/agent/messages', { message: 'left my jacket on the ferry yesterday, how do i get it back' });
  // Then it is answered from lost property
  t.strictSame([r.status, r.body.sources], [200, ['Lost property']]);
  // And a gale is asked of the weather policy first
  const gale = await ws.api.post('/agent/messages', { message: "It's blowing a gale out there, how do I find out if my sailing is still running?" });
  t.strictSame(gale.body.sources[0], 'Weather disruption');
});
