import { ACCESS_TOKEN_TTL_S, REFRESH_TOKEN_TTL_S } from '@otklik/shared';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { authSessions, memberships, spaces, tariffs, users } from '../../db/schema';
import type { AuthContext } from '../../http/auth';
import { AppError, badRequest } from '../../http/errors';
import { randomToken, sha256 } from '../../lib/crypto';

export interface TokenResponse {
  access_token: string;
  refresh_token: string;
  token_type: 'Bearer';
  expires_in: number;
  /** Unix seconds (SPEC §3 Auth token). */
  expires_at: number;
}

export interface SessionMeta {
  clientId: string;
  ip?: string;
  userAgent?: string;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Issues a new token pair; `familyId` continues a refresh chain, a new login starts one. */
export async function issueTokens(db: Db, userId: number, meta: SessionMeta, familyId = randomToken(16)) {
  const access = randomToken();
  const refresh = randomToken();
  const now = nowSeconds();
  await db.insert(authSessions).values({
    userId,
    familyId,
    clientId: meta.clientId,
    accessDigest: sha256(access),
    refreshDigest: sha256(refresh),
    accessExpiresAt: new Date((now + ACCESS_TOKEN_TTL_S) * 1000),
    refreshExpiresAt: new Date((now + REFRESH_TOKEN_TTL_S) * 1000),
    ip: meta.ip,
    userAgent: meta.userAgent?.slice(0, 512),
  });
  return tokenResponse(access, refresh, now);
}

function tokenResponse(access: string, refresh: string, issuedAt: number): TokenResponse {
  return {
    access_token: access,
    refresh_token: refresh,
    token_type: 'Bearer',
    expires_in: ACCESS_TOKEN_TTL_S,
    expires_at: issuedAt + ACCESS_TOKEN_TTL_S,
  };
}

const invalidGrant = () => badRequest('error.invalidGrant', { errorType: 'invalid_grant' });

/**
 * Refresh with rotation: the presented refresh token is spent and a new pair issued in the same family.
 * A spent token presented again means it leaked: the whole family is revoked (reuse detection).
 */
export async function refreshTokens(db: Db, refreshToken: string, meta: SessionMeta): Promise<TokenResponse> {
  const digest = sha256(refreshToken);
  const [session] = await db
    .select()
    .from(authSessions)
    .where(eq(authSessions.refreshDigest, digest))
    .limit(1);
  if (!session || session.revokedAt) throw invalidGrant();
  if (session.clientId !== meta.clientId) throw invalidGrant();
  if (session.rotatedAt) {
    await revokeFamily(db, session.familyId);
    throw invalidGrant();
  }
  if (session.refreshExpiresAt.getTime() <= Date.now()) throw invalidGrant();
  // The conditional update makes two concurrent refreshes with one token count as reuse.
  const spent = await db
    .update(authSessions)
    .set({ rotatedAt: new Date() })
    .where(
      and(eq(authSessions.id, session.id), isNull(authSessions.rotatedAt), isNull(authSessions.revokedAt)),
    )
    .returning({ id: authSessions.id });
  if (spent.length === 0) {
    await revokeFamily(db, session.familyId);
    throw invalidGrant();
  }
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, session.userId)).limit(1);
  if (!user) throw new AppError(404, 'error.userNotFound');
  return issueTokens(db, session.userId, meta, session.familyId);
}

export async function revokeFamily(db: Db, familyId: string): Promise<void> {
  await db
    .update(authSessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(authSessions.familyId, familyId), isNull(authSessions.revokedAt)));
}

export async function revokeSession(db: Db, sessionId: number): Promise<void> {
  const [session] = await db
    .select({ familyId: authSessions.familyId })
    .from(authSessions)
    .where(eq(authSessions.id, sessionId))
    .limit(1);
  if (session) await revokeFamily(db, session.familyId);
}

export async function revokeAllSessions(db: Db, userId: number): Promise<void> {
  await db
    .update(authSessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(authSessions.userId, userId), isNull(authSessions.revokedAt)));
}

/**
 * Resolves a bearer access token to its user; 401 with SPEC §8's text when expired. The user's
 * memberships come in the same statement (one row per membership), so a request that then loads its
 * actor needs no second round trip.
 */
export async function authenticateAccessToken(db: Db, token: string): Promise<AuthContext> {
  const rows = await sessionLookup(db).execute({ digest: sha256(token) });
  const row = rows[0];
  if (!row || row.session.revokedAt || row.session.rotatedAt) throw new AppError(401, 'error.invalidToken');
  if (row.session.accessExpiresAt.getTime() <= Date.now())
    throw new AppError(401, 'error.accessTokenExpired');
  const memberRows = rows.flatMap(({ membership, space, tariff }) =>
    membership && space && tariff ? [{ membership, space, tariff }] : [],
  );
  return { user: row.user, sessionId: row.session.id, memberships: memberRows, snapshot: row.snapshot };
}

// Every authenticated request runs this statement: built once per database and prepared on the server.
const sessionLookups = new WeakMap<Db, ReturnType<typeof buildSessionLookup>>();

function buildSessionLookup(db: Db) {
  return db
    .select({
      session: authSessions,
      user: users,
      membership: memberships,
      space: spaces,
      tariff: tariffs,
      // The database snapshot this request starts from: cached list pages are valid only for it.
      snapshot: sql<string>`pg_current_snapshot()::text`,
    })
    .from(authSessions)
    .innerJoin(users, eq(users.id, authSessions.userId))
    .leftJoin(memberships, eq(memberships.userId, authSessions.userId))
    .leftJoin(spaces, eq(spaces.id, memberships.spaceId))
    .leftJoin(tariffs, eq(tariffs.id, spaces.tariffId))
    .where(eq(authSessions.accessDigest, sql.placeholder('digest')))
    .orderBy(asc(spaces.id))
    .prepare('otklik_session_lookup');
}

function sessionLookup(db: Db) {
  let lookup = sessionLookups.get(db);
  if (!lookup) {
    lookup = buildSessionLookup(db);
    sessionLookups.set(db, lookup);
  }
  return lookup;
}
