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

export function verifyTotp(secret: string, code: string): boolean {
  return /^\d{6}$/.test(code) && authenticator.check(code, secret);
}

export function currentTotp(secret: string): string {
  return authenticator.generate(secret);
}

// Recovery codes fit the login code field (SPEC §9: code input max 7 characters): 7 characters from an
// alphabet without look-alikes, ~34 bits each, single use.
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
export const RECOVERY_CODE_COUNT = 10;

export function generateRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () =>
    Array.from({ length: 7 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join(''),
  );
}

export const recoveryCodeDigest = (code: string) => sha256(`otp-recovery:${code.trim().toLowerCase()}`);
