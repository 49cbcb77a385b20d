import type { OtpSetupWire } from '@otklik/shared';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import type { UserRow } from '../../http/auth';
import { badRequest } from '../../lib/errors';
import { publishSessionsEnded } from '../../realtime/sessions';
import { enforceRateLimit } from './guards';
import {
  generateOtpSecret,
  generateRecoveryCodes,
  otpAuthUrl,
  otpQrDataUrl,
  recoveryCodeDigest,
  verifyTotp,
} from './otp';
import { verifyPassword } from './passwords';
import { claimTotpStep } from './second-factor';
import { type AuthDeps, afterSecurityChange } from './service';
import type { SessionMeta, TokenResponse } from './tokens';

/**
 * Step 1 of enabling TOTP: a new secret (stored sealed, not yet active), its QR code and one-time
 * recovery codes. Nothing changes for login until `confirmTwoFactor` proves the app has the secret.
 */
export async function startTwoFactor(deps: AuthDeps, user: UserRow): Promise<OtpSetupWire> {
  if (user.otpEnabled) throw badRequest('error.otpAlreadyEnabled', { errorType: 'otp_enabled' });
  const secret = generateOtpSecret();
  const recoveryCodes = generateRecoveryCodes();
  await deps.db
    .update(users)
    .set({ otpSecret: deps.sealer.seal(secret), otpRecoveryCodes: recoveryCodes.map(recoveryCodeDigest) })
    .where(eq(users.id, user.id));
  const url = otpAuthUrl(user.email, secret);
  return { secret, otpauth_url: url, qr: await otpQrDataUrl(url), recovery_codes: recoveryCodes };
}

/**
 * Step 2: the code proves the app has the secret; 2FA goes on. Sessions opened with the password alone
 * end (the caller's continues under the returned new tokens), and so do outstanding reset links.
 */
export async function confirmTwoFactor(
  deps: AuthDeps,
  session: { user: UserRow; sessionId: number; meta: Omit<SessionMeta, 'clientId'> },
  code: string,
): Promise<TokenResponse> {
  const { user } = session;
  if (user.otpEnabled) throw badRequest('error.otpAlreadyEnabled', { errorType: 'otp_enabled' });
  await enforceRateLimit(
    deps.limiter,
    `otp:${user.id}`,
    deps.config.AUTH_RATE_LIMIT_PER_USER,
    deps.config.AUTH_RATE_LIMIT_WINDOW_S,
  );
  const step = user.otpSecret ? verifyTotp(deps.sealer.open(user.otpSecret), code.trim()) : null;
  // The confirming code counts as used: it cannot sign in afterwards.
  if (step === null || !(await claimTotpStep(deps.db, user.id, step))) {
    throw badRequest('error.wrongCode', { errorType: 'wrong_code', fields: { code: 'error.wrongCode' } });
  }
  const tokens = await deps.db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    await t.update(users).set({ otpEnabled: true }).where(eq(users.id, user.id));
    return afterSecurityChange(t, user.id, session);
  });
  // After the commit: sockets of the sessions that just ended close on every node.
  await publishSessionsEnded(deps.bus, user.id, { all: true });
  return tokens;
}

export async function disableTwoFactor(deps: AuthDeps, user: UserRow, password: string): Promise<void> {
  if (!user.otpEnabled) throw badRequest('error.otpNotEnabled', { errorType: 'otp_not_enabled' });
  await enforceRateLimit(
    deps.limiter,
    `password:${user.id}`,
    deps.config.AUTH_RATE_LIMIT_PER_USER,
    deps.config.AUTH_RATE_LIMIT_WINDOW_S,
  );
  if (!(await verifyPassword(user.passwordHash, password))) {
    throw badRequest('error.wrongPassword', {
      errorType: 'wrong_password',
      fields: { password: 'error.wrongPassword' },
    });
  }
  await deps.db
    .update(users)
    .set({ otpEnabled: false, otpSecret: null, otpRecoveryCodes: [], otpLastStep: null })
    .where(eq(users.id, user.id));
}
