import type { Locale } from '@otklik/shared';
import type { Config } from '../../../lib/config';

export const SOCIAL_PROVIDER_IDS = ['vk', 'facebook', 'google', 'yandex'] as const;
export type SocialProviderId = (typeof SOCIAL_PROVIDER_IDS)[number];

export function isSocialProviderId(value: string): value is SocialProviderId {
  return (SOCIAL_PROVIDER_IDS as readonly string[]).includes(value);
}

/** Our application's credentials at a provider. */
export interface ProviderClient {
  id: string;
  secret: string;
}

/** What we keep from a provider's profile. */
export interface ProviderProfile {
  /** The provider's stable user id, as a string (VK's is numeric). */
  id: string;
  name: string;
  email?: string;
  /** The network vouches for the address, so it may be matched to an existing user. */
  emailVerified: boolean;
}

/** One network's OAuth 2.0 authorization-code flow, at base URLs from config. */
export interface SocialProvider {
  id: SocialProviderId;
  /** Shown in 'Не удалось войти через {{provider}}'. */
  title: string;
  /** docs/product/api.md: VK and Yandex are offered for the Russian locale only. */
  locales: readonly Locale[];
  credentials(config: Config): ProviderClient | undefined;
  authorizeUrl(config: Config, client: ProviderClient, opts: { redirectUri: string; state: string }): string;
  /** Exchanges the code for an access token and reads the profile with it; throws ProviderError. */
  fetchProfile(
    config: Config,
    client: ProviderClient,
    opts: { code: string; redirectUri: string },
  ): Promise<ProviderProfile>;
}

/** Both halves set, or none: a provider with only an id configured is unavailable. */
export function pairOf(id: string | undefined, secret: string | undefined): ProviderClient | undefined {
  return id && secret ? { id, secret } : undefined;
}
