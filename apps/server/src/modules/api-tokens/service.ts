import {
  API_TOKEN_PREFIX,
  API_TOKEN_TOUCH_S,
  type CreateApiTokenBody,
  effectiveRoles,
  isRolePresetName,
  parseRoleFlags,
  ROLE_FLAGS,
  ROLE_PRESETS,
  type RoleFlags,
  type RolePresetName,
} from '@otklik/shared';
import { and, desc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { apiTokens, spaces, tariffs, users } from '../../db/schema';
import type { AuthContext } from '../../http/auth';
import { randomToken, sha256 } from '../../lib/crypto';
import { AppError, badRequest, notFound } from '../../lib/errors';
import { loadMemberships, type MembershipRow, type ServerActor } from '../spaces/actor';

export type ApiTokenRow = typeof apiTokens.$inferSelect;

/** True for a bearer value that is an API token rather than a login's access token. */
export function isApiToken(token: string): boolean {
  return token.startsWith(API_TOKEN_PREFIX);
}

/** Flags both allow: a token's role never lifts its owner above their own role. */
function capRoles(own: RoleFlags, cap: RoleFlags): RoleFlags {
  const mine = effectiveRoles(own);
  const limit = effectiveRoles(cap);
  return Object.fromEntries(ROLE_FLAGS.map((flag) => [flag, mine[flag] && limit[flag]])) as RoleFlags;
}

/** Whether a preset gives nothing the member's own flags do not. */
export function roleWithin(own: RoleFlags, role: RolePresetName): boolean {
  const mine = effectiveRoles(own);
  const wanted = ROLE_PRESETS[role];
  return ROLE_FLAGS.every((flag) => !wanted[flag] || mine[flag]);
}

/**
 * The memberships a token may act with. Personal: its owner's own, only its space when it has one, each
 * capped at its role. Space: that one space with the token's role, whatever its creator's membership.
 */
function tokenScope(token: ApiTokenRow, spaceRow: Pick<MembershipRow, 'space' | 'tariff'> | null) {
  const role = token.role && isRolePresetName(token.role) ? token.role : null;
  if (token.kind === 'space') {
    const fixed: MembershipRow[] = spaceRow
      ? [
          {
            ...spaceRow,
            membership: {
              spaceId: spaceRow.space.id,
              userId: token.userId,
              roles: { ...ROLE_PRESETS[role ?? 'read-only'] },
              groupId: null,
              departmentIds: [],
              statusId: null,
              statusChangedAt: null,
              statusManualAt: null,
              approvalRequired: false,
              approvalUntil: null,
              createdAt: token.createdAt,
            },
          },
        ]
      : [];
    return (_rows: MembershipRow[]) => fixed;
  }
  return (rows: MembershipRow[]) =>
    rows
      .filter((row) => token.spaceId === null || row.space.id === token.spaceId)
      .map((row) =>
        role
          ? {
              ...row,
              membership: {
                ...row.membership,
                roles: capRoles(parseRoleFlags(row.membership.roles), ROLE_PRESETS[role]),
              },
            }
          : row,
      );
}

/**
 * Resolves an `otk_` bearer token: 401 when unknown, revoked or expired. The auth hook then runs the
 * same access gate and builds `req.actor` from these memberships, already narrowed to this token's scope.
 * last_used_at is written at most once a minute per token, by a conditional update.
 */
export async function authenticateApiToken(db: Db, secret: string, now = new Date()): Promise<AuthContext> {
  const [row] = await db
    .select({ token: apiTokens, user: users })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(eq(apiTokens.tokenDigest, sha256(secret)))
    .limit(1);
  if (!row || row.token.revokedAt) throw new AppError(401, 'error.invalidToken');
  const { token, user } = row;
  if (token.expiresAt && token.expiresAt.getTime() <= now.getTime())
    throw new AppError(401, 'error.accessTokenExpired');
  if (!token.lastUsedAt || token.lastUsedAt.getTime() <= now.getTime() - API_TOKEN_TOUCH_S * 1000)
    await db
      .update(apiTokens)
      .set({ lastUsedAt: now })
      .where(
        and(
          eq(apiTokens.id, token.id),
          or(
            isNull(apiTokens.lastUsedAt),
            lt(apiTokens.lastUsedAt, new Date(now.getTime() - API_TOKEN_TOUCH_S * 1000)),
          ),
        ),
      );
  let spaceRow: Pick<MembershipRow, 'space' | 'tariff'> | null = null;
  if (token.kind === 'space' && token.spaceId !== null) {
    const [found] = await db
      .select({ space: spaces, tariff: tariffs })
      .from(spaces)
      .innerJoin(tariffs, eq(tariffs.id, spaces.tariffId))
      .where(eq(spaces.id, token.spaceId))
      .limit(1);
    spaceRow = found ?? null;
  }
  const scope = tokenScope(token, spaceRow);
  const memberships = scope(token.kind === 'space' ? [] : await loadMemberships(db, user.id));
  return {
    user,
    sessionId: 0,
    memberships,
    apiToken: { id: token.id, kind: token.kind, spaceId: token.spaceId },
  };
}

/** Creates a token and returns it with its secret, which is never shown again. */
export async function createApiToken(
  db: Db,
  actor: ServerActor,
  input: CreateApiTokenBody,
  now = new Date(),
) {
  const spaceId = input.space_id ?? null;
  const role = input.role ?? null;
  if (spaceId !== null) {
    const membership = actor.rows.find((row) => row.space.id === spaceId);
    if (!membership) throw notFound();
    if (input.kind === 'personal' && role && !roleWithin(parseRoleFlags(membership.membership.roles), role))
      throw badRequest('apiTokens.roleAbove', { fields: { role: 'apiTokens.roleAbove' } });
  }
  if (input.expires_at != null && input.expires_at * 1000 <= now.getTime())
    throw badRequest('field.invalid', { fields: { expires_at: 'field.invalid' } });
  const secret = `${API_TOKEN_PREFIX}${randomToken(32)}`;
  const [row] = await db
    .insert(apiTokens)
    .values({
      kind: input.kind,
      userId: actor.userId,
      spaceId,
      name: input.name,
      role,
      tokenDigest: sha256(secret),
      hint: `${secret.slice(0, API_TOKEN_PREFIX.length + 4)}…`,
      expiresAt: input.expires_at ? new Date(input.expires_at * 1000) : null,
    })
    .returning();
  return { row: row!, secret };
}

/** The caller's personal tokens and the space tokens of the spaces they administer; live ones first. */
export async function listApiTokens(db: Db, userId: number, adminSpaceIds: number[]) {
  return db
    .select()
    .from(apiTokens)
    .where(
      and(
        isNull(apiTokens.revokedAt),
        or(
          and(eq(apiTokens.kind, 'personal'), eq(apiTokens.userId, userId)),
          adminSpaceIds.length > 0
            ? and(eq(apiTokens.kind, 'space'), inArray(apiTokens.spaceId, adminSpaceIds))
            : sql`false`,
        ),
      ),
    )
    .orderBy(desc(apiTokens.id));
}

export async function getApiToken(db: Db, id: number): Promise<ApiTokenRow | undefined> {
  const [row] = await db.select().from(apiTokens).where(eq(apiTokens.id, id)).limit(1);
  return row;
}

export async function revokeApiToken(db: Db, id: number, now = new Date()) {
  const [row] = await db
    .update(apiTokens)
    .set({ revokedAt: now })
    .where(and(eq(apiTokens.id, id), isNull(apiTokens.revokedAt)))
    .returning();
  return row;
}
