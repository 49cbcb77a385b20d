import type { ProviderActions } from '../types';

// What several catalogue entries share (catalogue.ts has the catalogue's sources and rules).

/** Every action off, so an entry lists only what its network allows. */
export function actions(allowed: Partial<ProviderActions>): ProviderActions {
  return {
    delete: false,
    restore: false,
    reply: false,
    like: false,
    hide: false,
    report: false,
    edit_comment: false,
    direct: false,
    block: false,
    react: false,
    ...allowed,
  };
}

// docs/product/limits.md "Edit windows".
export const VK_COMMENT_EDIT_WINDOW_S = 43_200;
export const VC_COMMENT_EDIT_WINDOW_S = 1_200;

// docs/product/validation.md: "App Store 5970", "Google Play 350" — the same store limit whichever service relays the reply.
export const APP_STORE_REPLY_LENGTH = 5_970;
export const GOOGLE_PLAY_REPLY_LENGTH = 350;

export const INGEST_HINT = {
  ru: 'У этого сайта нет публичного API. Передайте токен сборщику, который присылает отзывы и комментарии сайта в Otklik через API приёма.',
  en: 'This site has no public API. Give the token to the collector that sends the site’s reviews and comments to Otklik through the ingestion API.',
};

export const APPFOLLOW_HINT = {
  ru: 'Укажите API-токен AppFollow (страница API management) и приложение, отзывы которого нужно получать.',
  en: 'Enter your AppFollow API token (API management page) and the app whose reviews to collect.',
};

export const ASODESK_HINT = {
  ru: 'Укажите API-ключ Asodesk и приложение, отзывы которого нужно получать.',
  en: 'Enter your Asodesk API key and the app whose reviews to collect.',
};
