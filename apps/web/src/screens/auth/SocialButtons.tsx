import { Button, Divider, SimpleGrid } from '@mantine/core';
import {
  type Icon,
  IconBrandFacebook,
  IconBrandGoogle,
  IconBrandVk,
  IconBrandYandex,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/instance';
import { useAuthConfig } from '../../components/Recaptcha';
import { rememberLoginRedirect } from './loginRedirect';

type SocialProviderId = 'vk' | 'facebook' | 'google' | 'yandex';

/** Names of the networks (brands: the same in every language) and their icons. */
export const SOCIAL_PROVIDERS: Record<SocialProviderId, { label: string; icon: Icon }> = {
  vk: { label: 'VK', icon: IconBrandVk },
  facebook: { label: 'Facebook', icon: IconBrandFacebook },
  google: { label: 'Google', icon: IconBrandGoogle },
  yandex: { label: 'Yandex', icon: IconBrandYandex },
};

/** Where linking returns to (ProfileScreen's social card finishes it). */
export const linkRedirectUri = (provider: string, origin = window.location.origin) =>
  `${origin}/settings/profile?link=${provider}`;

export function socialStartUrl(
  provider: string,
  mode: 'login' | 'link' = 'login',
  origin = window.location.origin,
): string {
  const redirectUri = mode === 'link' ? linkRedirectUri(provider, origin) : `${origin}/login/${provider}`;
  return `${api.currentBase()}/v1/auth/social/${provider}/start?redirect_uri=${encodeURIComponent(redirectUri)}&mode=${mode}`;
}

/**
 * Social sign-in: only the networks this server has configured for the locale (GET /v1/auth/config);
 * the server redirects to the provider's page, which returns to /login/{provider}.
 */
export function SocialButtons({ redirect }: { redirect: string | null }) {
  const { t } = useTranslation();
  const { data: config } = useAuthConfig();
  const providers = (config?.social_providers ?? []).map((id) => ({ id, ...SOCIAL_PROVIDERS[id] }));
  if (providers.length === 0) return null;
  return (
    <>
      <Divider label={t('login.social')} labelPosition="center" />
      <SimpleGrid cols={2} spacing="sm">
        {providers.map((provider) => (
          <Button
            key={provider.id}
            component="a"
            href={socialStartUrl(provider.id)}
            variant="default"
            leftSection={<provider.icon size={18} />}
            onClick={() => rememberLoginRedirect(redirect)}
          >
            {provider.label}
          </Button>
        ))}
      </SimpleGrid>
    </>
  );
}
