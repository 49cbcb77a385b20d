import { z } from 'zod';
import type { Config } from '../../../lib/config';
import { randomToken, type Sealer } from '../../../lib/crypto';
import type { SocialProviderId } from './types';

/** How long the provider's authorization page may take: the state is refused after that. */
export const STATE_TTL_S = 600;

/** `login` signs in or up (POST /v1/signup/provider); `link` adds a network to the current user (POST /v1/me/social). */
export type SocialMode = 'login' | 'link';

export interface StateClaims {
  provider: SocialProviderId;
  redirectUri: string;
  mode: SocialMode;
}

const sealedSchema = z.object({
  p: z.string(),
  r: z.string(),
  m: z.enum(['login', 'link']),
  /** Expiry, unix seconds. */
  e: z.number(),
  /** Makes every state unique, so one can't be predicted from another. */
  n: z.string(),
});

/**
 * The OAuth `state`: provider, redirect_uri and mode sealed with the instance key (AES-GCM, so it is
 * both secret and tamper-evident), valid for STATE_TTL_S. Stateless, so any node can check it.
 */
export function createState(sealer: Sealer, claims: StateClaims, now = Date.now()): string {
  const payload: z.infer<typeof sealedSchema> = {
    p: claims.provider,
    r: claims.redirectUri,
    m: claims.mode,
    e: Math.floor(now / 1000) + STATE_TTL_S,
    n: randomToken(12),
  };
  return sealer.seal(JSON.stringify(payload));
}

/** True when `state` was made by createState for exactly these claims and hasn't expired. */
export function isValidState(
  sealer: Sealer,
  state: string,
  expected: StateClaims,
  now = Date.now(),
): boolean {
  let opened: unknown;
  try {
    opened = JSON.parse(sealer.open(state));
  } catch {
    return false;
  }
  const parsed = sealedSchema.safeParse(opened);
  if (!parsed.success) return false;
  const { p, r, m, e } = parsed.data;
  return p === expected.provider && r === expected.redirectUri && m === expected.mode && e * 1000 > now;
}

/**
 * Providers send the browser (with the code) to redirect_uri, so it must be one of our own pages:
 * anything else would be an open redirect that hands codes to someone else's site.
 */
export function isAppRedirectUri(config: Config, redirectUri: string): boolean {
  let url: URL;
  try {
    url = new URL(redirectUri);
  } catch {
    return false;
  }
  return url.origin === new URL(config.appUrl).origin && !url.username && !url.password;
}
