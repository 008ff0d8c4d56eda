// The webhooks suite again, its services and admin runs on a MongoDB read store (FerretDB in CI).
import { onMongoReadStore } from '../../support/mongo-suite';

onMongoReadStore(() => import('../webhooks.test.js'));
