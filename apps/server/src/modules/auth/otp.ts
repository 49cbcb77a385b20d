import { randomInt } from 'node:crypto';
import { authenticator } from 'otplib';
import QRCode from 'qrcode';
import { sha256 } from '../../lib/crypto';

// TOTP (RFC 6238, 30 s steps, 6 digits) with one step of clock drift allowed either way.
authenticator.options = { window: 1 };

export function generateOtpSecret(): string {
  return authenticator.generateSecret(20);
}

export function otpAuthUrl(email: string, secret: string): string {
  return authenticator.keyuri(email, 'Otklik', secret);
}

export function otpQrDataUrl(url: string): Promise<string> {
  return QRCode.toDataURL(url, { margin: 1, width: 220 });
}

const STEP_MS = 30_000;

/**
 * The time step (unix ms / 30 s) the code belongs to when it is valid now, otherwise null. Callers
 * record the step so that a code, once accepted, is never accepted again (RFC 6238 §5.2).
 */
export function verifyTotp(secret: string, code: string, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = authenticator.clone({ epoch: now }).checkDelta(code, secret);
  return delta === null ? null : Math.floor(now / STEP_MS) + delta;
}

/** The code an authenticator app shows `stepsAhead` steps from now (tests, and nothing else). */
export function currentTotp(secret: string, stepsAhead = 0): string {
  return authenticator.clone({ epoch: Date.now() + stepsAhead * STEP_MS }).generate(secret);
}

// Recovery codes fit the login code field (docs/product/limits.md: code input max 7 characters): 7 characters from an
// alphabet without look-alikes, ~34 bits each, single use.
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
export const RECOVERY_CODE_COUNT = 10;

export function generateRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () =>
    Array.from({ length: 7 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join(''),
  );
}

export const recoveryCodeDigest = (code: string) => sha256(`otp-recovery:${code.trim().toLowerCase()}`);
