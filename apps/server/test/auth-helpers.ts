import { eq } from 'drizzle-orm';
import { users } from '../src/db/schema';
import { hashPassword } from '../src/modules/auth/passwords';
import { createTrialSpace } from '../src/modules/spaces/service';
import { STRONG_PASSWORD, type TestApp, uniqueEmail, WEB_CLIENT } from './harness';

/** A confirmed user with a password and their own trial space (buildOperator-style factory). */
export async function buildUser(
  t: TestApp,
  opts: { email?: string; password?: string; name?: string; locale?: string } = {},
) {
  const db = t.deps.database.db;
  const email = opts.email ?? uniqueEmail();
  const [user] = await db
    .insert(users)
    .values({
      name: opts.name ?? 'Test User',
      email,
      passwordHash: await hashPassword(opts.password ?? STRONG_PASSWORD),
      emailStatus: 1,
      locale: opts.locale ?? 'ru',
    })
    .returning();
  const space = await createTrialSpace(db, { name: 'Test Co', ownerId: user!.id });
  return { user: user!, space, email, password: opts.password ?? STRONG_PASSWORD };
}

export async function reloadUser(t: TestApp, id: number) {
  const [user] = await t.deps.database.db.select().from(users).where(eq(users.id, id));
  return user!;
}

export async function passwordLogin(
  t: TestApp,
  username: string,
  password: string,
  extra: Record<string, unknown> = {},
) {
  return t.app.inject({
    method: 'POST',
    url: '/v1/oauth2/token',
    payload: { grant_type: 'password', ...WEB_CLIENT, username, password, ...extra },
  });
}

export async function loginTokens(t: TestApp, username: string, password = STRONG_PASSWORD) {
  const res = await passwordLogin(t, username, password);
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return res.json() as {
    access_token: string;
    refresh_token: string;
    expires_at: number;
    expires_in: number;
  };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
