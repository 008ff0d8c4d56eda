// The free-form JSON suite again, on a MongoDB read store (FerretDB in CI).
import { onMongoReadStore } from '../../support/mongo-suite';

onMongoReadStore(() => import('../free-json.test.js'));
