// The text edges again on a MongoDB read store (FerretDB in CI): the same rules on both engines.
import { onMongoReadStore } from '../../support/mongo-suite';

onMongoReadStore(() => import('../text-edges.test.js'));
