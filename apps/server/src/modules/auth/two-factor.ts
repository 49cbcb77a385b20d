import { eq } from 'drizzle-orm';
import { users } from '../../db/schema';
import type { UserRow } from '../../http/auth';
import { badRequest } from '../../http/errors';
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
import type { AuthDeps } from './service';

/**
 * Step 1 of enabling TOTP: a new secret (stored sealed, not yet active), its QR code and one-time
 * recovery codes. Nothing changes for login until `confirmTwoFactor` proves the app has the secret.
 */
export async function startTwoFactor(deps: AuthDeps, user: UserRow) {
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

export async function confirmTwoFactor(deps: AuthDeps, user: UserRow, code: string): Promise<void> {
  if (user.otpEnabled) throw badRequest('error.otpAlreadyEnabled', { errorType: 'otp_enabled' });
  await enforceRateLimit(
    deps.limiter,
    `otp:${user.id}`,
    deps.config.AUTH_RATE_LIMIT_PER_USER,
    deps.config.AUTH_RATE_LIMIT_WINDOW_S,
  );
  if (!user.otpSecret || !verifyTotp(deps.sealer.open(user.otpSecret), code.trim())) {
    throw badRequest('error.wrongCode', { errorType: 'wrong_code', fields: { code: 'error.wrongCode' } });
  }
  await deps.db.update(users).set({ otpEnabled: true }).where(eq(users.id, user.id));
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
    .set({ otpEnabled: false, otpSecret: null, otpRecoveryCodes: [] })
    .where(eq(users.id, user.id));
}
