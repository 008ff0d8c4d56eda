// The rebuild in worker threads again, its service and admin runs on a MongoDB read store (FerretDB in CI).
import { onMongoReadStore } from '../../support/mongo-suite';

onMongoReadStore(() => import('../rebuild.test.js'));
