import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { Config } from '../../lib/config';
import type { VerifiedAccount } from '../types';

// Pulse (T-Investments' social network) has no public API (PROVIDERS.md has no section on it), so the
// `check` of SPEC §7 `POST v1/tpulse/check_auth {check}` is OUR contract with a partner sign-in, written
// down in README and docs/product/accounts.md — UNCONFIRMED against anything Pulse publishes:
//   check = base64url(JSON payload) + "." + hex HMAC-SHA256(TPULSE_CHECK_SECRET, the base64url part)
//   payload = { profile_id, nickname, name?, image?, state, auth_date (unix seconds) }
// Pulse's sign-in page gets our sealed `state` (GET /v1/tpulse/auth/start) and sends the person back to
// /callback/tpulse?check=…; the check is good for CHECK_TTL_S and proves which Pulse profile signed in.

/** How long a check stays good after Pulse signed it (and how far ahead its clock may run). */
export const CHECK_TTL_S = 600;
const CLOCK_SKEW_S = 60;

const payloadSchema = z.object({
  profile_id: z.union([z.string().min(1), z.number()]).transform(String),
  nickname: z.string().min(1).max(200),
  name: z.string().max(200).optional(),
  image: z.string().url().optional(),
  state: z.string().min(1),
  auth_date: z.number().int(),
});
export type PulseCheckPayload = z.input<typeof payloadSchema>;

/** Why a check was refused (for the log; the caller sees one message). */
export class PulseCheckRefused extends Error {}

const signature = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest('hex');

/** Signs a payload the way the Pulse side does (tests and the emulator). */
export function signPulseCheck(secret: string, payload: PulseCheckPayload): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${signature(secret, body)}`;
}

/** Verifies a check (signature in constant time, then freshness) and says who signed in and our state. */
export function verifyPulseCheck(
  config: Pick<Config, 'TPULSE_CHECK_SECRET'>,
  check: string,
  now: Date,
): { account: VerifiedAccount; state: string } {
  const secret = config.TPULSE_CHECK_SECRET;
  if (!secret) throw new PulseCheckRefused('Pulse sign-in is not configured');
  const [body, given, ...rest] = check.trim().split('.');
  if (!body || !given || rest.length > 0) throw new PulseCheckRefused('malformed check');
  const expected = Buffer.from(signature(secret, body));
  const actual = Buffer.from(given.toLowerCase());
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected))
    throw new PulseCheckRefused('signature mismatch');
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    throw new PulseCheckRefused('payload is not JSON');
  }
  const parsed = payloadSchema.safeParse(json);
  if (!parsed.success) throw new PulseCheckRefused('payload has the wrong shape');
  const p = parsed.data;
  const age = Math.floor(now.getTime() / 1000) - p.auth_date;
  if (age > CHECK_TTL_S || age < -CLOCK_SKEW_S) throw new PulseCheckRefused('check expired');
  return {
    state: p.state,
    account: {
      externalId: p.profile_id,
      name: p.name ?? p.nickname,
      screenName: p.nickname,
      image: p.image,
      url: `https://www.tbank.ru/invest/social/profile/${encodeURIComponent(p.nickname)}/`,
      credentials: {},
    },
  };
}
