// Provider ids — docs/product/entities.md "Provider ids", in the spec's order, plus `sandbox`: the built-in test network
// that needs no internet (ARCHITECTURE "Providers"). Stored on connected accounts, so never rename one.
export const PROVIDER_IDS = [
  'vk',
  'facebook',
  'instagram',
  'threads',
  'twitter',
  'ok',
  'youtube',
  'gmaps',
  'googleplay',
  'telegram',
  'viber',
  'vc',
  'flamp',
  'appfollow',
  'af_huawei',
  'af_xstore',
  'af_itunes',
  'af_googleplay',
  'asodesk',
  'asodesk_googleplay',
  'asodesk_appstore',
  'asodesk_rustore',
  'whatsapp',
  'jivo',
  'userecho',
  'pikabu',
  'useresponse',
  'pntr',
  'bcs',
  'bankiru',
  'sravniru',
  'tiktok',
  'tinkoff',
  'tpulse',
  'avito',
  'discord',
  'rustore',
  'max',
  'sandbox',
] as const;

export type ProviderId = (typeof PROVIDER_IDS)[number];

export function isProviderId(value: unknown): value is ProviderId {
  return typeof value === 'string' && (PROVIDER_IDS as readonly string[]).includes(value);
}
