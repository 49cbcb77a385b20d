import type { Locale } from '@otklik/shared';
import type { Config } from '../../../lib/config';
import { facebook } from './facebook';
import { google } from './google';
import {
  type ProviderClient,
  SOCIAL_PROVIDER_IDS,
  type SocialProvider,
  type SocialProviderId,
} from './types';
import { vk } from './vk';
import { yandex } from './yandex';

export { ProviderError } from './http';
export * from './types';

const PROVIDERS: Record<SocialProviderId, SocialProvider> = { vk, facebook, google, yandex };

export function socialProvider(id: SocialProviderId): SocialProvider {
  return PROVIDERS[id];
}

/** The provider and our credentials there, or undefined when its CLIENT_ID/SECRET are not both set. */
export function configuredProvider(
  config: Config,
  id: SocialProviderId,
): { provider: SocialProvider; client: ProviderClient } | undefined {
  const provider = PROVIDERS[id];
  const client = provider.credentials(config);
  return client ? { provider, client } : undefined;
}

/** Providers to offer: configured ones, and for a locale only those shown in it (docs/product/api.md). */
export function availableProviderIds(config: Config, locale?: Locale): SocialProviderId[] {
  return SOCIAL_PROVIDER_IDS.filter((id) => {
    const provider = PROVIDERS[id];
    return provider.credentials(config) && (!locale || provider.locales.includes(locale));
  });
}
