// The set-aside suite again, its service and admin runs on a MongoDB read store (FerretDB in CI).
import { onMongoReadStore } from '../../support/mongo-suite';

onMongoReadStore(() => import('../set-aside.test.js'));
