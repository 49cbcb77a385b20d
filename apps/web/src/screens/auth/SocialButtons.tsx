import { Button, Divider, SimpleGrid } from '@mantine/core';
import type { Locale } from '@otklik/shared';
import {
  type Icon,
  IconBrandFacebook,
  IconBrandGoogle,
  IconBrandVk,
  IconBrandYandex,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/instance';
import { rememberLoginRedirect } from './loginRedirect';

interface SocialProvider {
  id: 'vk' | 'facebook' | 'google' | 'yandex';
  label: string;
  icon: Icon;
  /** SPEC §7: VK and Yandex are offered only in the Russian locale. */
  ruOnly?: boolean;
}

const PROVIDERS: SocialProvider[] = [
  { id: 'vk', label: 'VK', icon: IconBrandVk, ruOnly: true },
  { id: 'facebook', label: 'Facebook', icon: IconBrandFacebook },
  { id: 'google', label: 'Google', icon: IconBrandGoogle },
  { id: 'yandex', label: 'Yandex', icon: IconBrandYandex, ruOnly: true },
];

export function socialStartUrl(provider: string, origin = window.location.origin): string {
  const redirectUri = `${origin}/login/${provider}`;
  return `${api.currentBase()}/v1/auth/social/${provider}/start?redirect_uri=${encodeURIComponent(redirectUri)}`;
}

/** Social sign-in: the server redirects to the provider's authorization page, which returns to /login/{provider}. */
export function SocialButtons({ locale, redirect }: { locale: Locale; redirect: string | null }) {
  const { t } = useTranslation();
  const providers = PROVIDERS.filter((provider) => locale === 'ru' || !provider.ruOnly);
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
