import { createHash } from 'node:crypto';
import {
  type AuthorizeRequest,
  type MessageKey,
  OAUTH_CLIENT_ID_PREFIX,
  OAUTH_CODE_TTL_S,
  PKCE_CHALLENGE,
  PKCE_VERIFIER,
} from '@otklik/shared';
import { and, asc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { authSessions, memberships, oauthApps, oneTimeTokens, spaces } from '../../db/schema';
import { randomToken, safeEqual, sha256 } from '../../lib/crypto';
import { AppError } from '../../lib/errors';
import { publishSessionsEnded, type SessionEvents } from '../../realtime/sessions';
import { issueTokens, type SessionMeta, type TokenResponse } from '../auth/tokens';

// Third-party apps (issue 14 item 8): registration, the authorization-code grant with PKCE S256
// (RFC 6749 §4.1, RFC 7636) and revocation. Codes are one_time_tokens rows (kind oauth_code); the
// tokens an app gets are auth_sessions rows with oauth_app_id — the same store, refresh rotation,
// revocation and socket closing as the web app's logins.

export type OAuthAppRow = typeof oauthApps.$inferSelect;

/** RFC 6749 §5.2 error (`{ error, error_description }`). */
export const oauthError = (status: number, code: string, key: MessageKey, headers?: Record<string, string>) =>
  new AppError(status, key, { errorType: code, rfc6749: true, headers });

const invalidGrant = (key: MessageKey = 'oauth.invalidCode') => oauthError(400, 'invalid_grant', key);

// ---------------------------------------------------------------------------------------------------
// Registration (administrators)

export async function listApps(db: Db, spaceIds: number[]) {
  if (spaceIds.length === 0) return [];
  const apps = await db
    .select()
    .from(oauthApps)
    .where(inArray(oauthApps.spaceId, spaceIds))
    .orderBy(asc(oauthApps.spaceId), asc(oauthApps.id));
  const counts = await activeUserCounts(
    db,
    apps.map((a) => a.id),
  );
  return apps.map((app) => ({ app, activeUsers: counts.get(app.id) ?? 0 }));
}

/** Users holding a live grant of each app: a current (not rotated, not revoked) pair whose refresh works. */
async function activeUserCounts(db: Db, appIds: number[]): Promise<Map<number, number>> {
  if (appIds.length === 0) return new Map();
  const rows = await db
    .select({
      appId: authSessions.oauthAppId,
      users: sql<number>`count(DISTINCT ${authSessions.userId})::int`,
    })
    .from(authSessions)
    .where(
      and(
        inArray(authSessions.oauthAppId, appIds),
        isNull(authSessions.revokedAt),
        isNull(authSessions.rotatedAt),
        sql`${authSessions.refreshExpiresAt} > now()`,
      ),
    )
    .groupBy(authSessions.oauthAppId);
  return new Map(rows.map((r) => [r.appId!, Number(r.users)]));
}

export async function getApp(db: Db, id: number): Promise<OAuthAppRow | undefined> {
  const [row] = await db.select().from(oauthApps).where(eq(oauthApps.id, id)).limit(1);
  return row;
}

const newSecret = () => randomToken(32);

export async function createApp(
  db: Db,
  input: { spaceId: number; name: string; redirectUris: string[]; createdBy: number },
): Promise<{ app: OAuthAppRow; secret: string }> {
  const secret = newSecret();
  const [app] = await db
    .insert(oauthApps)
    .values({
      spaceId: input.spaceId,
      clientId: `${OAUTH_CLIENT_ID_PREFIX}${randomToken(16)}`,
      secretDigest: sha256(secret),
      name: input.name,
      redirectUris: input.redirectUris,
      createdBy: input.createdBy,
    })
    .returning();
  return { app: app!, secret };
}

export async function updateApp(
  db: Db,
  id: number,
  patch: { name?: string; redirect_uris?: string[] },
): Promise<OAuthAppRow> {
  const [app] = await db
    .update(oauthApps)
    .set({
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.redirect_uris !== undefined ? { redirectUris: patch.redirect_uris } : {}),
      updatedAt: new Date(),
    })
    .where(eq(oauthApps.id, id))
    .returning();
  return app!;
}

/** A new secret; the old one stops working at once. Tokens already issued keep working. */
export async function regenerateSecret(db: Db, id: number): Promise<{ app: OAuthAppRow; secret: string }> {
  const secret = newSecret();
  const [app] = await db
    .update(oauthApps)
    .set({ secretDigest: sha256(secret), updatedAt: new Date() })
    .where(eq(oauthApps.id, id))
    .returning();
  return { app: app!, secret };
}

/** Ends the app's tokens of every user (sockets close at once), then deletes it and its codes. */
export async function deleteApp(db: Db, id: number, events: SessionEvents): Promise<void> {
  await endAppSessions(db, events, eq(authSessions.oauthAppId, id));
  await db
    .delete(oneTimeTokens)
    .where(
      and(eq(oneTimeTokens.kind, 'oauth_code'), sql`(${oneTimeTokens.payload}->>'app_id')::int = ${id}`),
    );
  await db.delete(oauthApps).where(eq(oauthApps.id, id));
}

/** Revokes the matching live sessions through the same path as a logout and tells each user's sockets. */
async function endAppSessions(db: Db, events: SessionEvents, where: SQL | undefined) {
  const ended = await db
    .update(authSessions)
    .set({ revokedAt: new Date() })
    .where(and(where, isNull(authSessions.revokedAt)))
    .returning({ id: authSessions.id, userId: authSessions.userId });
  const byUser = new Map<number, number[]>();
  for (const row of ended) byUser.set(row.userId, [...(byUser.get(row.userId) ?? []), row.id]);
  for (const [userId, sessionIds] of byUser) await publishSessionsEnded(events, userId, { sessionIds });
}

// ---------------------------------------------------------------------------------------------------
// Grants (the signed-in user)

export async function listGrants(db: Db, userId: number) {
  const rows = await db
    .select({
      appId: oauthApps.id,
      clientId: oauthApps.clientId,
      name: oauthApps.name,
      spaceId: spaces.id,
      spaceName: spaces.name,
      grantedAt: sql<Date>`min(${authSessions.createdAt})`.mapWith((v) => new Date(v)),
      lastUsedAt: oauthApps.lastUsedAt,
    })
    .from(authSessions)
    .innerJoin(oauthApps, eq(oauthApps.id, authSessions.oauthAppId))
    .innerJoin(spaces, eq(spaces.id, oauthApps.spaceId))
    .where(and(eq(authSessions.userId, userId), isNull(authSessions.revokedAt)))
    .groupBy(oauthApps.id, spaces.id)
    .having(sql`bool_or(${authSessions.rotatedAt} IS NULL AND ${authSessions.refreshExpiresAt} > now())`)
    .orderBy(asc(oauthApps.name));
  return rows;
}

/** The user withdraws their consent: every token the app holds for them ends now. */
export async function revokeGrant(db: Db, userId: number, appId: number, events: SessionEvents) {
  await endAppSessions(db, events, and(eq(authSessions.userId, userId), eq(authSessions.oauthAppId, appId)));
}

// ---------------------------------------------------------------------------------------------------
// Authorization request (the consent screen)

export type AuthorizeCheck =
  | { kind: 'ok'; app: OAuthAppRow; spaceName: string; redirectUri: string }
  /** The request is bad but the client and redirect URI are known: the error goes back to the app. */
  | { kind: 'redirect'; to: string };

/**
 * RFC 6749 §4.1.2.1: with an unknown client or a redirect URI not registered for it, the user sees
 * the error and is never sent anywhere; every other error is reported to the app's redirect URI.
 */
export async function checkAuthorizeRequest(
  db: Db,
  userId: number,
  req: AuthorizeRequest,
): Promise<AuthorizeCheck> {
  const [app] = await db.select().from(oauthApps).where(eq(oauthApps.clientId, req.client_id)).limit(1);
  if (!app) throw new AppError(400, 'oauth.unknownClient', { errorType: 'invalid_client' });
  if (!app.redirectUris.includes(req.redirect_uri))
    throw new AppError(400, 'oauth.redirectMismatch', { errorType: 'invalid_redirect_uri' });
  const back = (error: string) => ({
    kind: 'redirect' as const,
    to: redirectWith(req.redirect_uri, { error, state: req.state }),
  });
  if (req.response_type !== 'code') return back('unsupported_response_type');
  if (req.code_challenge_method !== 'S256' || !req.code_challenge || !PKCE_CHALLENGE.test(req.code_challenge))
    return back('invalid_request');
  const [member] = await db
    .select({ spaceName: spaces.name })
    .from(memberships)
    .innerJoin(spaces, eq(spaces.id, memberships.spaceId))
    .where(and(eq(memberships.userId, userId), eq(memberships.spaceId, app.spaceId)))
    .limit(1);
  if (!member) throw new AppError(403, 'oauth.notMember', { errorType: 'not_member' });
  return { kind: 'ok', app, spaceName: member.spaceName, redirectUri: req.redirect_uri };
}

export function redirectWith(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [key, value] of Object.entries(params))
    if (value !== undefined) url.searchParams.set(key, value);
  return url.toString();
}

/** The user's answer: allow → a single-use code bound to everything the exchange must match; deny → access_denied. */
export async function decide(db: Db, userId: number, req: AuthorizeRequest, allow: boolean): Promise<string> {
  const check = await checkAuthorizeRequest(db, userId, req);
  if (check.kind === 'redirect') return check.to;
  if (!allow) return redirectWith(check.redirectUri, { error: 'access_denied', state: req.state });
  const code = randomToken(32);
  await db.insert(oneTimeTokens).values({
    kind: 'oauth_code',
    digest: sha256(code),
    userId,
    payload: {
      app_id: check.app.id,
      space_id: check.app.spaceId,
      redirect_uri: check.redirectUri,
      code_challenge: req.code_challenge!,
    },
    expiresAt: new Date(Date.now() + OAUTH_CODE_TTL_S * 1000),
  });
  return redirectWith(check.redirectUri, { code, state: req.state });
}

// ---------------------------------------------------------------------------------------------------
// Token endpoint (the app)

/**
 * RFC 6749 §2.3.1 client authentication of a third-party app. 401 invalid_client; with Basic the
 * response names the scheme (§5.2).
 */
export async function authenticateClient(
  db: Db,
  clientId: string,
  secret: string,
  viaBasic: boolean,
): Promise<OAuthAppRow> {
  const [app] = await db.select().from(oauthApps).where(eq(oauthApps.clientId, clientId)).limit(1);
  if (!app || !safeEqual(sha256(secret), app.secretDigest))
    throw oauthError(
      401,
      'invalid_client',
      'error.invalidClient',
      viaBasic ? { 'www-authenticate': 'Basic realm="otklik"' } : undefined,
    );
  return app;
}

interface CodePayload {
  app_id: number;
  space_id: number;
  redirect_uri: string;
  code_challenge: string;
  family_id?: string;
}

const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/** RFC 6749 §4.1.3 + RFC 7636 §4.6: the code, once, for the client, redirect URI and verifier it was bound to. */
export async function exchangeCode(
  db: Db,
  app: OAuthAppRow,
  input: { code?: string; redirect_uri?: string; code_verifier?: string },
  meta: Omit<SessionMeta, 'clientId' | 'oauthAppId'>,
  events: SessionEvents,
): Promise<TokenResponse> {
  if (!input.code) throw oauthError(400, 'invalid_request', 'oauth.badRequest');
  if (!input.code_verifier || !PKCE_VERIFIER.test(input.code_verifier))
    throw oauthError(400, 'invalid_request', 'oauth.pkceRequired');
  const [row] = await db
    .select()
    .from(oneTimeTokens)
    .where(and(eq(oneTimeTokens.digest, sha256(input.code)), eq(oneTimeTokens.kind, 'oauth_code')))
    .limit(1);
  if (!row?.userId) throw invalidGrant();
  const payload = row.payload as unknown as CodePayload;
  if (row.usedAt) {
    // RFC 6749 §4.1.2: a code used twice — the tokens issued for it are revoked too.
    if (payload.family_id) await endAppSessions(db, events, eq(authSessions.familyId, payload.family_id));
    throw invalidGrant();
  }
  if (payload.app_id !== app.id) throw invalidGrant();
  // Spent before the remaining checks: a wrong verifier or address burns the code (no guessing).
  const spent = await db
    .update(oneTimeTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(oneTimeTokens.id, row.id), isNull(oneTimeTokens.usedAt)))
    .returning({ id: oneTimeTokens.id });
  if (spent.length === 0) throw invalidGrant();
  if (row.expiresAt.getTime() <= Date.now()) throw invalidGrant();
  if (input.redirect_uri !== payload.redirect_uri) throw invalidGrant('oauth.redirectMismatch');
  if (!safeEqual(s256(input.code_verifier), payload.code_challenge))
    throw invalidGrant('oauth.verifierMismatch');
  const [member] = await db
    .select({ spaceId: memberships.spaceId })
    .from(memberships)
    .where(and(eq(memberships.userId, row.userId), eq(memberships.spaceId, payload.space_id)))
    .limit(1);
  if (!member || app.spaceId !== payload.space_id) throw invalidGrant();
  const familyId = randomToken(16);
  const tokens = await issueTokens(
    db,
    row.userId,
    { ...meta, clientId: app.clientId, oauthAppId: app.id },
    familyId,
  );
  await db
    .update(oneTimeTokens)
    .set({ payload: { ...payload, family_id: familyId } })
    .where(eq(oneTimeTokens.id, row.id));
  await touchApp(db, app.id);
  return tokens;
}

export async function touchApp(db: Db, appId: number): Promise<void> {
  await db.update(oauthApps).set({ lastUsedAt: new Date() }).where(eq(oauthApps.id, appId));
}
