import { Alert, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ApiError } from '../../../api/client';
import { type SocialProviderId, useLinkedSocial, useSocialMutations } from '../../../api/me';
import { useAuthConfig } from '../../../components/Recaptcha';
import { useMessage } from '../../../i18n/useLocale';
import { linkRedirectUri, SOCIAL_PROVIDERS, socialStartUrl } from '../../auth/SocialButtons';
import { socialErrorKey } from '../../auth/socialError';
import { SectionCard } from './SectionCard';

/**
 * Linked social sign-ins (docs/product/api.md v1/me/social): "Link" goes through the provider's page and comes
 * back here with ?link=<provider>&code&state, which this card sends to POST /v1/me/social.
 */
export function SocialCard() {
  const { t } = useTranslation();
  const message = useMessage();
  const [params, setParams] = useSearchParams();
  const { data: config } = useAuthConfig();
  const { data: linked } = useLinkedSocial();
  const { link, unlink } = useSocialMutations();
  const [error, setError] = useState<string | null>(null);
  const handled = useRef<string | null>(null);

  // The provider's redirect back: finish linking once per code, then clean the address.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per returned code
  useEffect(() => {
    const provider = params.get('link');
    const code = params.get('code');
    const socialError = socialErrorKey(params.get('social_error') ?? params.get('error'));
    if (!provider && !socialError) return;
    const key = `${provider}:${code}:${socialError}`;
    if (handled.current === key) return;
    handled.current = key;
    setParams({}, { replace: true });
    if (socialError || !provider || !code) {
      const reason = socialError ?? 'error.missingCode';
      setError(reason.startsWith('account.') ? t('account.socialError') : message(reason));
      return;
    }
    const label = SOCIAL_PROVIDERS[provider as SocialProviderId]?.label ?? provider;
    link
      .mutateAsync({
        provider,
        code,
        state: params.get('state') ?? '',
        redirect_uri: linkRedirectUri(provider),
      })
      .then(
        () => notifications.show({ color: 'green', message: t('account.linkedDone', { provider: label }) }),
        (e) => e instanceof ApiError && setError(e.message),
      );
  }, [params]);

  const onUnlink = async (provider: SocialProviderId) => {
    setError(null);
    try {
      await unlink.mutateAsync(provider);
      notifications.show({
        color: 'green',
        message: t('account.unlinkedDone', { provider: SOCIAL_PROVIDERS[provider].label }),
      });
    } catch (e) {
      if (e instanceof ApiError) setError(e.message);
    }
  };

  const linkedIds = linked?.providers ?? [];
  // Configured networks, and any linked one no longer configured (so it can still be unlinked).
  const ids = [...new Set([...(config?.social_providers ?? []), ...linkedIds])];
  return (
    <SectionCard title={t('account.socialHeading')} description={t('account.socialText')}>
      {error && (
        <Alert color="red" role="alert" data-testid="social-error">
          {error}
        </Alert>
      )}
      {link.isPending && <Text fz="sm">{t('account.linking')}</Text>}
      {ids.length === 0 ? (
        <Text c="dimmed" fz="sm">
          {t('account.socialNone')}
        </Text>
      ) : (
        <Stack gap="xs" data-testid="social-list">
          {ids.map((id) => {
            const { label, icon: Icon } = SOCIAL_PROVIDERS[id];
            const isLinked = linkedIds.includes(id);
            return (
              <Group key={id} justify="space-between" wrap="nowrap" data-testid={`social-${id}`}>
                <Group gap="xs" wrap="nowrap">
                  <Icon size={20} />
                  <Text fw={600}>{label}</Text>
                  <Badge variant="light" color={isLinked ? 'green' : 'gray'} tt="none">
                    {isLinked ? t('account.linked') : t('account.notLinked')}
                  </Badge>
                </Group>
                {isLinked ? (
                  <Button variant="default" size="xs" onClick={() => onUnlink(id)} loading={unlink.isPending}>
                    {t('account.unlink')}
                  </Button>
                ) : (
                  <Button component="a" href={socialStartUrl(id, 'link')} size="xs" variant="light">
                    {t('account.link')}
                  </Button>
                )}
              </Group>
            );
          })}
        </Stack>
      )}
    </SectionCard>
  );
}
