import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import type { UserRow } from '../../http/auth';
import type { Config } from '../../lib/config';
import type { Sealer } from '../../lib/crypto';
import { badRequest } from '../../lib/errors';
import type { RateLimiter } from '../../lib/rate-limit';
import { enforceRateLimit } from './guards';
import { recoveryCodeDigest, verifyTotp } from './otp';
import { recordAuthFailure } from './throttle';

interface SecondFactorDeps {
  db: Db;
  sealer: Sealer;
}

/**
 * Records `step` as the user's last accepted TOTP step unless that step (or a later one) was already
 * used. One conditional UPDATE, so two requests racing with one code cannot both win.
 */
export async function claimTotpStep(db: Db, userId: number, step: number): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ otpLastStep: step })
    .where(and(eq(users.id, userId), or(isNull(users.otpLastStep), lt(users.otpLastStep, step))))
    .returning({ id: users.id });
  return rows.length > 0;
}

/** Removes one recovery code if it is still there; false when unknown or already spent (concurrently too). */
async function spendRecoveryCode(db: Db, userId: number, code: string): Promise<boolean> {
  const digest = recoveryCodeDigest(code);
  const rows = await db
    .update(users)
    .set({ otpRecoveryCodes: sql`${users.otpRecoveryCodes} - ${digest}::text` })
    .where(and(eq(users.id, userId), sql`${users.otpRecoveryCodes} @> jsonb_build_array(${digest}::text)`))
    .returning({ id: users.id });
  return rows.length > 0;
}

/** A TOTP code not used before, or one unused recovery code; either is spent by a successful check. */
export async function checkSecondFactor(
  deps: SecondFactorDeps,
  user: UserRow,
  code: string,
): Promise<boolean> {
  if (user.otpSecret) {
    const step = verifyTotp(deps.sealer.open(user.otpSecret), code);
    if (step !== null) return claimTotpStep(deps.db, user.id, step);
  }
  return spendRecoveryCode(deps.db, user.id, code);
}

/**
 * The second factor of a user with 2FA on: 400 code_required without a code, 400 wrong_code for a
 * wrong or reused one. Attempts are limited per account (only someone past the password or holding the
 * mailed link gets here, so it cannot lock the owner out); `failedFrom`: a wrong code also counts as a
 * failure of that address (modules/auth/throttle.ts backoff).
 */
export async function requireSecondFactor(
  deps: SecondFactorDeps & { limiter: RateLimiter; config: Config },
  user: UserRow,
  rawCode: string | undefined,
  opts: { failedFrom?: string } = {},
): Promise<void> {
  const code = rawCode?.trim();
  if (!code) throw badRequest('error.codeRequired', { errorType: 'code_required' });
  await enforceRateLimit(
    deps.limiter,
    `login:code:${user.id}`,
    deps.config.AUTH_RATE_LIMIT_PER_USER,
    deps.config.AUTH_RATE_LIMIT_WINDOW_S,
  );
  if (!(await checkSecondFactor(deps, user, code))) {
    if (opts.failedFrom) await recordAuthFailure(deps, opts.failedFrom);
    throw badRequest('error.wrongCode', { errorType: 'wrong_code', fields: { code: 'error.wrongCode' } });
  }
}
