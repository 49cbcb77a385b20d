import {
  CONFIRM_EMAIL_TTL_S,
  type InvitationSignupForm,
  isStrongPassword,
  type Locale,
  RESET_PASSWORD_TTL_S,
  type SignupForm,
} from '@otklik/shared';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { invitations, memberships, users } from '../../db/schema';
import type { UserRow } from '../../http/auth';
import type { Config } from '../../lib/config';
import type { Sealer } from '../../lib/crypto';
import { sha256 } from '../../lib/crypto';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors';
import type { RateLimiter } from '../../lib/rate-limit';
import type { Mailer } from '../../mail/mailer';
import { renderMail } from '../../mail/templates';
import { publishSessionsEnded, type SessionEvents } from '../../realtime/sessions';
import { applyPromocode, redeemPromocode } from '../referral/service';
import { createSignupSpace } from '../spaces/manage';
import { addMember } from '../spaces/service';
import { startWithDefaultStatus } from '../statuses/service';
import { enforceRateLimit } from './guards';
import { createOneTimeToken, findOneTimeToken, spendAllOneTimeTokens, spendOneTimeToken } from './one-time';
import { hashPassword, verifyPassword } from './passwords';
import { requireSecondFactor } from './second-factor';
import { assertOwnSettingsRefs } from './settings-refs';
import { beforeAuthAttempt, recordAuthFailure } from './throttle';
import {
  endOtherSessions,
  issueTokens,
  revokeAllSessions,
  type SessionMeta,
  type TokenResponse,
} from './tokens';

export interface AuthDeps {
  db: Db;
  config: Config;
  mailer: Mailer;
  limiter: RateLimiter;
  sealer: Sealer;
  /** Ending sessions closes their sockets on every node (realtime/sessions.ts). */
  bus: SessionEvents;
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [user] = await db
    .select()
    .from(users)
    .where(eq(users.email, normalizeEmail(email)))
    .limit(1);
  return user;
}

export async function getUser(db: Db, id: number): Promise<UserRow> {
  const [user] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  if (!user) throw new AppError(404, 'error.userNotFound');
  return user;
}

// ---------------------------------------------------------------- login

export async function loginWithPassword(
  deps: AuthDeps,
  input: { username: string; password: string; code?: string },
  meta: SessionMeta & { ip: string },
): Promise<TokenResponse> {
  const { db } = deps;
  const email = normalizeEmail(input.username);
  // SPEC keeps 404 for an unknown email and 400 for a wrong password; throttle.ts keeps probing slow.
  await beforeAuthAttempt(deps, 'login', meta.ip, email);

  const user = await findUserByEmail(db, email);
  // verifyPassword does the same work with no user, so timing reveals no more than the 404 does.
  const passwordOk = await verifyPassword(user?.passwordHash, input.password);
  if (!user || !passwordOk) await recordAuthFailure(deps, meta.ip);
  if (!user) throw new AppError(404, 'error.userNotFound');
  if (!passwordOk)
    throw badRequest('error.wrongPassword', {
      errorType: 'wrong_password',
      fields: { password: 'error.wrongPassword' },
    });

  // The attempt was counted above with the login's own limits; a wrong code counts as the address's failure.
  if (user.otpEnabled) await requireSecondFactor(deps, user, input.code, { failedFrom: meta.ip });
  const tokens = await issueTokens(db, user.id, meta);
  await startWithDefaultStatus(db, deps.bus, user.id);
  return tokens;
}

/**
 * After a password change or 2FA switched on: no reset link mailed before works any more, and every
 * other session ends; the current one continues under the returned new tokens. Run it in the change's
 * transaction, so the change never lands without its consequences.
 */
export async function afterSecurityChange(
  db: Db,
  userId: number,
  current: { sessionId: number; meta: Omit<SessionMeta, 'clientId'> },
): Promise<TokenResponse> {
  await spendAllOneTimeTokens(db, userId, 'reset_password');
  return endOtherSessions(db, userId, current.sessionId, current.meta);
}

// ---------------------------------------------------------------- signup and confirmation

export async function signup(deps: AuthDeps, form: SignupForm, locale: Locale) {
  const { db } = deps;
  const email = normalizeEmail(form.email);
  if (!isStrongPassword(form.password)) {
    throw badRequest('signup.password.complexity', { fields: { password: 'signup.password.complexity' } });
  }
  if (await findUserByEmail(db, email)) {
    throw badRequest('error.emailTaken', { errorType: 'email_taken', fields: { email: 'error.emailTaken' } });
  }
  const passwordHash = await hashPassword(form.password);
  const userLocale = form.locale ?? locale;
  const user = await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(users)
      .values({ name: form.name, email, passwordHash, locale: userLocale, emailStatus: 0 })
      .onConflictDoNothing()
      .returning();
    if (!created)
      throw badRequest('error.emailTaken', {
        errorType: 'email_taken',
        fields: { email: 'error.emailTaken' },
      });
    // An invalid code refuses the signup (rolled back with the user) with a message on its field.
    const code = form.promocode ? await redeemPromocode(tx as unknown as Db, form.promocode) : undefined;
    const space = await createSignupSpace(
      tx as unknown as Db,
      {
        name: form.company,
        ownerId: created.id,
        tariffId: form.tariff_id,
        promocode: code?.code,
        locale: userLocale,
      },
      deps.config.FIRST_SPACE_TARIFF_ID,
    );
    if (code) await applyPromocode(tx as unknown as Db, space.id, code);
    return created;
  });
  await sendConfirmation(deps, user, email);
  return { user, email };
}

/** Mails a confirmation link for `email` (the user's current address, or a new one being set). */
export async function sendConfirmation(deps: AuthDeps, user: UserRow, email: string): Promise<void> {
  const hash = await createOneTimeToken(deps.db, 'confirm_email', {
    userId: user.id,
    email,
    ttlSeconds: CONFIRM_EMAIL_TTL_S,
  });
  const link = `${deps.config.appUrl}/confirm_email/${hash}`;
  const mail = renderMail('confirm_email', localeOf(user), { name: user.name, link });
  await deps.mailer.send({ to: email, ...mail, kind: 'confirm_email' });
}

/**
 * Confirms the address and signs in, except a user with 2FA on: a mailed link is one factor, so they get
 * no session from it (the web app then sends them to the login, or keeps the session it has).
 */
export async function confirmEmail(
  deps: AuthDeps,
  hash: string,
  meta: SessionMeta,
): Promise<TokenResponse | undefined> {
  const { db } = deps;
  const token = await findOneTimeToken(db, 'confirm_email', hash);
  if (!token?.userId || !token.email) throw badRequest('error.unknownHash', { errorType: 'unknown_hash' });
  const user = await getUser(db, token.userId);
  const taken = token.email !== user.email ? await findUserByEmail(db, token.email) : undefined;
  if (taken) throw badRequest('error.emailTaken', { errorType: 'email_taken' });
  if (!(await spendOneTimeToken(db, token.id)))
    throw badRequest('error.unknownHash', { errorType: 'unknown_hash' });
  await db.update(users).set({ email: token.email, emailStatus: 1 }).where(eq(users.id, user.id));
  return user.otpEnabled ? undefined : issueTokens(db, user.id, meta);
}

export async function changeEmail(deps: AuthDeps, user: UserRow, newEmail: string): Promise<void> {
  const email = normalizeEmail(newEmail);
  await enforceRateLimit(deps.limiter, `confirm-mail:${user.id}`, 5, 600);
  const existing = await findUserByEmail(deps.db, email);
  if (existing && existing.id !== user.id) {
    throw badRequest('error.emailTaken', { errorType: 'email_taken', fields: { email: 'error.emailTaken' } });
  }
  // An unconfirmed address is replaced at once (the email dialog's "edit" state); a confirmed one keeps
  // working until the new address is confirmed through the link.
  if (user.emailStatus < 1) await deps.db.update(users).set({ email }).where(eq(users.id, user.id));
  await sendConfirmation(deps, { ...user, email: user.emailStatus < 1 ? email : user.email }, email);
}

export async function resendConfirmation(
  deps: AuthDeps,
  user: UserRow,
  email: string | undefined,
): Promise<void> {
  if (email && normalizeEmail(email) !== user.email) return changeEmail(deps, user, email);
  if (user.emailStatus >= 1)
    throw badRequest('error.emailAlreadyConfirmed', { errorType: 'already_confirmed' });
  await enforceRateLimit(deps.limiter, `confirm-mail:${user.id}`, 5, 600);
  await sendConfirmation(deps, user, user.email);
}

/**
 * POST /v1/signup/resend: "send again" on the screen after signup, before any sign-in. Mails only an
 * address still waiting for confirmation, and answers alike for every address (no account probing).
 */
export async function resendSignupConfirmation(deps: AuthDeps, email: string): Promise<void> {
  const user = await findUserByEmail(deps.db, normalizeEmail(email));
  if (!user || user.emailStatus >= 1) return;
  await enforceRateLimit(deps.limiter, `confirm-mail:${user.id}`, 5, 600);
  await sendConfirmation(deps, user, user.email);
}

// ---------------------------------------------------------------- invitations

async function findLiveInvitation(db: Db, hash: string) {
  const [invitation] = await db
    .select()
    .from(invitations)
    .where(
      and(
        eq(invitations.hashDigest, sha256(hash)),
        isNull(invitations.usedAt),
        gt(invitations.expiresAt, new Date()),
      ),
    )
    .limit(1);
  return invitation;
}

/** docs/product/api.md GET /v1/signup/{hash}: the invited email, or 409 when used or unknown. */
export async function getInvitationEmail(db: Db, hash: string): Promise<string> {
  const invitation = await findLiveInvitation(db, hash);
  if (!invitation) throw conflict('error.invitationUsed', { errorType: 'invitation_used' });
  return invitation.email;
}

export async function signupWithInvitation(
  deps: AuthDeps,
  hash: string,
  form: InvitationSignupForm,
  locale: Locale,
  meta: SessionMeta,
): Promise<TokenResponse> {
  const { db } = deps;
  const invitation = await findLiveInvitation(db, hash);
  if (!invitation) throw conflict('error.invitationUsed', { errorType: 'invitation_used' });
  if (!isStrongPassword(form.password)) {
    throw badRequest('signup.password.complexity', { fields: { password: 'signup.password.complexity' } });
  }
  if (await findUserByEmail(db, invitation.email)) {
    throw badRequest('error.emailTaken', { errorType: 'email_taken', fields: { email: 'error.emailTaken' } });
  }
  const passwordHash = await hashPassword(form.password);
  const userId = await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const used = await t
      .update(invitations)
      .set({ usedAt: new Date() })
      .where(and(eq(invitations.id, invitation.id), isNull(invitations.usedAt)))
      .returning({ id: invitations.id });
    if (used.length === 0) throw conflict('error.invitationUsed', { errorType: 'invitation_used' });
    // The invitation link proved the address, so the email starts confirmed and stays locked to it.
    const [user] = await t
      .insert(users)
      .values({
        name: form.name,
        email: invitation.email,
        passwordHash,
        locale: form.locale ?? locale,
        emailStatus: 1,
      })
      .returning({ id: users.id });
    await addMember(t, invitation.spaceId, user!.id, invitation.roles, {
      groupId: invitation.groupId,
      departmentIds: invitation.departmentIds,
    });
    return user!.id;
  });
  return issueTokens(db, userId, meta);
}

// ---------------------------------------------------------------- recovery

export async function requestRecovery(deps: AuthDeps, email: string, ip: string): Promise<void> {
  const { db, limiter } = deps;
  await beforeAuthAttempt(deps, 'recovery', ip, normalizeEmail(email));
  const user = await findUserByEmail(db, email);
  // docs/product/errors.md Recovery: 404 'Пользователь не найден'. It counts as a failure: probing emails backs off.
  if (!user) {
    await recordAuthFailure(deps, ip);
    throw notFound('error.userNotFound');
  }
  // Per account, against mail floods. Not a lock-out: the owner already holds the links sent.
  await enforceRateLimit(limiter, `recovery:user:${user.id}`, 5, 3_600);
  const hash = await createOneTimeToken(db, 'reset_password', {
    userId: user.id,
    email: user.email,
    ttlSeconds: RESET_PASSWORD_TTL_S,
  });
  const link = `${deps.config.appUrl}/reset_password/${hash}`;
  await deps.mailer.send({
    to: user.email,
    ...renderMail('reset_password', localeOf(user), { name: user.name, link }),
    kind: 'reset_password',
  });
}

export async function checkResetHash(db: Db, hash: string): Promise<{ email: string }> {
  const token = await findOneTimeToken(db, 'reset_password', hash);
  if (!token?.userId) throw badRequest('error.unknownHash', { errorType: 'unknown_hash' });
  const user = await getUser(db, token.userId);
  return { email: user.email };
}

/**
 * Sets a new password by a mailed link. A user with 2FA on must also give a code (400 code_required,
 * as at login): the link alone is one factor, so without the code nothing changes and the link stays
 * usable.
 */
export async function resetPassword(
  deps: AuthDeps,
  hash: string,
  input: { password: string; code?: string },
  meta: SessionMeta,
): Promise<TokenResponse> {
  const { db } = deps;
  if (!isStrongPassword(input.password)) {
    throw badRequest('signup.password.complexity', { fields: { password: 'signup.password.complexity' } });
  }
  const token = await findOneTimeToken(db, 'reset_password', hash);
  if (!token?.userId) throw badRequest('error.unknownHash', { errorType: 'unknown_hash' });
  const user = await getUser(db, token.userId);
  if (user.otpEnabled) await requireSecondFactor(deps, user, input.code);
  const passwordHash = await hashPassword(input.password);
  const tokens = await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    if (!(await spendOneTimeToken(t, token.id)))
      throw badRequest('error.unknownHash', { errorType: 'unknown_hash' });
    // Every other reset link and every session end; following the mailed link also proves the address.
    await spendAllOneTimeTokens(t, user.id, 'reset_password');
    await revokeAllSessions(t, user.id);
    await t
      .update(users)
      .set({ passwordHash, passwordChangedAt: new Date(), emailStatus: 1 })
      .where(eq(users.id, user.id));
    return issueTokens(t, user.id, meta);
  });
  // After the commit: open sockets of the ended sessions close on every node.
  await publishSessionsEnded(deps.bus, user.id, { all: true });
  return tokens;
}

// ---------------------------------------------------------------- profile

/** Changes the password; other sessions end, the caller's continues under the returned new tokens. */
export async function changePassword(
  deps: AuthDeps,
  session: { user: UserRow; sessionId: number; meta: Omit<SessionMeta, 'clientId'> },
  current: string,
  next: string,
): Promise<TokenResponse> {
  const { user } = session;
  await enforceRateLimit(
    deps.limiter,
    `password:${user.id}`,
    deps.config.AUTH_RATE_LIMIT_PER_USER,
    deps.config.AUTH_RATE_LIMIT_WINDOW_S,
  );
  if (user.passwordHash && !(await verifyPassword(user.passwordHash, current))) {
    throw badRequest('error.wrongPassword', {
      errorType: 'wrong_password',
      fields: { password: 'error.wrongPassword' },
    });
  }
  const passwordHash = await hashPassword(next);
  const tokens = await deps.db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    await t.update(users).set({ passwordHash, passwordChangedAt: new Date() }).where(eq(users.id, user.id));
    return afterSecurityChange(t, user.id, session);
  });
  await publishSessionsEnded(deps.bus, user.id, { all: true });
  return tokens;
}

export async function membershipRoles(db: Db, userId: number): Promise<Record<string, boolean>> {
  // The user-level `roles` of docs/product/entities.md is the union over the user's spaces; per-space roles come with config.
  const rows = await db
    .select({ roles: memberships.roles })
    .from(memberships)
    .where(eq(memberships.userId, userId));
  const union: Record<string, boolean> = {};
  for (const { roles } of rows) for (const [k, v] of Object.entries(roles)) if (v) union[k] = true;
  return union;
}

export function localeOf(user: UserRow): Locale {
  return user.locale === 'en' ? 'en' : 'ru';
}

export async function updateProfile(
  db: Db,
  user: UserRow,
  patch: { name?: string; locale?: 'ru' | 'en'; settings?: Record<string, unknown> },
) {
  if (patch.settings) await assertOwnSettingsRefs(db, user.id, patch.settings, user.settings);
  const set = {
    ...(patch.name ? { name: patch.name } : {}),
    ...(patch.locale ? { locale: patch.locale } : {}),
    ...(patch.settings ? { settings: { ...user.settings, ...patch.settings } } : {}),
  };
  if (Object.keys(set).length === 0) return user;
  const [updated] = await db.update(users).set(set).where(eq(users.id, user.id)).returning();
  return updated ?? user;
}
