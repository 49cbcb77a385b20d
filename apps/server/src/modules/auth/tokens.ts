import { ACCESS_TOKEN_TTL_S, REFRESH_TOKEN_TTL_S } from '@otklik/shared';
import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { authSessions, memberships, oauthApps, spaces, tariffs, users } from '../../db/schema';
import type { AuthContext } from '../../http/auth';
import { randomToken, sha256 } from '../../lib/crypto';
import { AppError, badRequest } from '../../lib/errors';
import { publishSessionsEnded, type SessionEvents } from '../../realtime/sessions';

export interface TokenResponse {
  access_token: string;
  refresh_token: string;
  token_type: 'Bearer';
  expires_in: number;
  /** Unix seconds (docs/product/entities.md Auth token). */
  expires_at: number;
}

export interface SessionMeta {
  clientId: string;
  /** A third-party app's grant (modules/oauthapps): the tokens act only in the app's space. */
  oauthAppId?: number | null;
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
    oauthAppId: meta.oauthAppId ?? null,
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
export async function refreshTokens(
  db: Db,
  refreshToken: string,
  meta: SessionMeta,
  events: SessionEvents,
): Promise<TokenResponse> {
  const digest = sha256(refreshToken);
  const [session] = await db
    .select()
    .from(authSessions)
    .where(eq(authSessions.refreshDigest, digest))
    .limit(1);
  if (!session || session.revokedAt) throw invalidGrant();
  if (session.clientId !== meta.clientId) throw invalidGrant();
  if (session.rotatedAt) {
    await revokeFamily(db, session.familyId, events);
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
    await revokeFamily(db, session.familyId, events);
    throw invalidGrant();
  }
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, session.userId)).limit(1);
  if (!user) throw new AppError(404, 'error.userNotFound');
  return issueTokens(db, session.userId, { ...meta, oauthAppId: session.oauthAppId }, session.familyId);
}

/**
 * Ends a login: every token pair of the family. The sockets opened with any of them close at once on
 * every node (realtime/sessions.ts); the hub's timer re-checks them too, in case an event is lost.
 */
export async function revokeFamily(db: Db, familyId: string, events: SessionEvents): Promise<void> {
  const ended = await db
    .update(authSessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(authSessions.familyId, familyId), isNull(authSessions.revokedAt)))
    .returning({ id: authSessions.id, userId: authSessions.userId });
  if (ended.length > 0)
    await publishSessionsEnded(events, ended[0]!.userId, { sessionIds: ended.map((row) => row.id) });
}

export async function revokeSession(db: Db, sessionId: number, events: SessionEvents): Promise<void> {
  const [session] = await db
    .select({ familyId: authSessions.familyId })
    .from(authSessions)
    .where(eq(authSessions.id, sessionId))
    .limit(1);
  if (session) await revokeFamily(db, session.familyId, events);
}

/**
 * RFC 7009 revocation by token: the login (family) holding this access or refresh token ends. An
 * unknown or already revoked token is not an error (the client's goal is reached either way).
 */
export async function revokeByToken(
  db: Db,
  token: string,
  clientId: string,
  events: SessionEvents,
): Promise<void> {
  const digest = sha256(token);
  const [session] = await db
    .select({ familyId: authSessions.familyId, clientId: authSessions.clientId })
    .from(authSessions)
    .where(or(eq(authSessions.accessDigest, digest), eq(authSessions.refreshDigest, digest)))
    .limit(1);
  // A client revokes only its own tokens (RFC 7009 §2.1).
  if (session && session.clientId === clientId) await revokeFamily(db, session.familyId, events);
}

/**
 * Ends every session of the user. `events`: tell open sockets on every node now — leave it out inside
 * a transaction and publish after the commit (the hubs check the sessions in the database first).
 */
export async function revokeAllSessions(db: Db, userId: number, events?: SessionEvents): Promise<void> {
  await db
    .update(authSessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(authSessions.userId, userId), isNull(authSessions.revokedAt)));
  if (events) await publishSessionsEnded(events, userId, { all: true });
}

/**
 * Which of these sessions still stand for a live login: not revoked, and their family still has a
 * current token pair (not rotated, not revoked) whose refresh has not expired. A socket outlives the
 * one-hour access token it was opened with while the browser keeps refreshing; it ends with the login.
 */
export async function liveSessionIds(db: Db, sessionIds: readonly number[]): Promise<Set<number>> {
  if (sessionIds.length === 0) return new Set();
  const current = sql`SELECT 1 FROM auth_sessions f WHERE f.family_id = ${authSessions.familyId}
    AND f.revoked_at IS NULL AND f.rotated_at IS NULL AND f.refresh_expires_at > now()`;
  const rows = await db
    .select({ id: authSessions.id })
    .from(authSessions)
    .where(
      and(
        inArray(authSessions.id, [...sessionIds]),
        isNull(authSessions.revokedAt),
        sql`EXISTS (${current})`,
      ),
    );
  return new Set(rows.map((row) => row.id));
}

/**
 * Ends every session of the user but the one making a security change (password change, 2FA switched
 * on); that one is rotated: its tokens end too and a new pair in the same family is returned, so a
 * token copied before the change is worthless after it.
 */
export async function endOtherSessions(
  db: Db,
  userId: number,
  keepSessionId: number,
  meta: Omit<SessionMeta, 'clientId'>,
): Promise<TokenResponse> {
  return db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const [kept] = await t
      .select({ familyId: authSessions.familyId, clientId: authSessions.clientId })
      .from(authSessions)
      .where(and(eq(authSessions.id, keepSessionId), eq(authSessions.userId, userId)))
      .limit(1);
    if (!kept) throw new AppError(401, 'error.invalidToken');
    await revokeAllSessions(t, userId);
    return issueTokens(t, userId, { ...meta, clientId: kept.clientId }, kept.familyId);
  });
}

/**
 * Resolves a bearer access token to its user; 401 with docs/product/errors.md's text when expired. The user's
 * memberships come in the same statement (one row per membership), so a request that then loads its
 * actor needs no second round trip.
 */
export async function authenticateAccessToken(db: Db, token: string): Promise<AuthContext> {
  const rows = await sessionLookup(db).execute({ digest: sha256(token) });
  const row = rows[0];
  if (!row || row.session.revokedAt || row.session.rotatedAt) throw new AppError(401, 'error.invalidToken');
  if (row.session.accessExpiresAt.getTime() <= Date.now())
    throw new AppError(401, 'error.accessTokenExpired');
  // A third-party app's token acts only in the app's space (the user's role there).
  const appSpaceId = row.session.oauthAppId === null ? undefined : (row.appSpaceId ?? -1);
  const memberRows = rows.flatMap(({ membership, space, tariff }) =>
    membership && space && tariff && (appSpaceId === undefined || space.id === appSpaceId)
      ? [{ membership, space, tariff }]
      : [],
  );
  return {
    user: row.user,
    sessionId: row.session.id,
    memberships: memberRows,
    snapshot: row.snapshot,
    ...(appSpaceId === undefined ? {} : { oauthAppId: row.session.oauthAppId!, appSpaceId }),
  };
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
      appSpaceId: oauthApps.spaceId,
      // The database snapshot this request starts from: cached list pages are valid only for it.
      snapshot: sql<string>`pg_current_snapshot()::text`,
    })
    .from(authSessions)
    .innerJoin(users, eq(users.id, authSessions.userId))
    .leftJoin(oauthApps, eq(oauthApps.id, authSessions.oauthAppId))
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
