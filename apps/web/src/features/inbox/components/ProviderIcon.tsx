import { Text, ThemeIcon, Tooltip } from '@mantine/core';
import {
  type Icon,
  IconBrandAppstore,
  IconBrandDiscord,
  IconBrandFacebook,
  IconBrandGooglePlay,
  IconBrandInstagram,
  IconBrandTelegram,
  IconBrandThreads,
  IconBrandTiktok,
  IconBrandViber,
  IconBrandVk,
  IconBrandWhatsapp,
  IconBrandX,
  IconBrandYoutube,
  IconFlask,
  IconMapPin,
} from '@tabler/icons-react';
import { providerEntry } from '../model/composer';

// The network's mark in its brand colour (catalogue `icon`, `color`). Networks without a Tabler icon show
// their initials on the brand colour.

const ICONS: Record<string, Icon> = {
  'brand-vk': IconBrandVk,
  'brand-facebook': IconBrandFacebook,
  'brand-instagram': IconBrandInstagram,
  'brand-threads': IconBrandThreads,
  'brand-x': IconBrandX,
  'brand-youtube': IconBrandYoutube,
  'brand-google-maps': IconMapPin,
  'brand-google-play': IconBrandGooglePlay,
  'brand-app-store': IconBrandAppstore,
  'brand-telegram': IconBrandTelegram,
  'brand-viber': IconBrandViber,
  'brand-whatsapp': IconBrandWhatsapp,
  'brand-tiktok': IconBrandTiktok,
  'brand-discord': IconBrandDiscord,
  sandbox: IconFlask,
};

function initials(name: string) {
  const letters = name.replace(/[^\p{L}\p{N}]/gu, '');
  return letters.slice(0, 2).toUpperCase() || '?';
}

export function providerName(provider: string | undefined): string {
  return providerEntry(provider)?.name ?? provider ?? '';
}

export function providerColor(provider: string | undefined): string {
  return providerEntry(provider)?.color ?? '#868E96';
}

export function ProviderIcon({
  provider,
  size = 28,
  withTooltip = true,
}: {
  provider: string | undefined;
  size?: number;
  withTooltip?: boolean;
}) {
  const entry = providerEntry(provider);
  const color = entry?.color ?? '#868E96';
  const BrandIcon = entry ? ICONS[entry.icon] : undefined;
  const icon = (
    <ThemeIcon
      size={size}
      radius="xl"
      color={color}
      variant="filled"
      aria-label={entry?.name ?? provider}
      role="img"
      data-provider={provider}
      style={{ flexShrink: 0 }}
    >
      {BrandIcon ? (
        <BrandIcon size={Math.round(size * 0.62)} stroke={1.8} />
      ) : (
        <Text component="span" fz={Math.max(9, Math.round(size * 0.36))} fw={700} c="white" lh={1}>
          {initials(entry?.name ?? provider ?? '')}
        </Text>
      )}
    </ThemeIcon>
  );
  if (!withTooltip || !entry) return icon;
  return (
    <Tooltip label={entry.name} openDelay={400}>
      {icon}
    </Tooltip>
  );
}
