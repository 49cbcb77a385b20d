// Every embedded-database server of a faults run starts from one migrated database (PGLITE_SEED, read by
// startApp). The suite picks its databases itself (PGlite, or a private PostgreSQL cluster per file), so
// a DATABASE_URL / REDIS_URL of the calling shell is ignored. It serves no web app: the API only.
import { preparePgliteSeed } from '../../apps/server/test/global-setup';

export default async function setup() {
  delete process.env.DATABASE_URL;
  delete process.env.REDIS_URL;
  return preparePgliteSeed();
}
