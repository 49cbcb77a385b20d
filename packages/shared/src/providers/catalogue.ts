import { actions } from './catalogue/common';
import { messengers } from './catalogue/messengers';
import { reviewSites } from './catalogue/review-sites';
import { socialNetworks } from './catalogue/social';
import { storesAndMaps } from './catalogue/stores';
import type { ProviderId } from './ids';
import { SANDBOX_REACTIONS } from './reactions';
import type { ProviderEntry } from './types';

// The provider catalogue — docs/product/entities.md (entry fields, ids), §5 (text limits, attachment counts) and §9 (edit
// windows, reaction sets). Where the spec is silent, what a network really allows comes from
// PROVIDERS.md; an UNCONFIRMED capability there is left off, so the interface never offers a button the
// network will refuse. Limit numbers are docs/product/validation.md verbatim (checked one by one in catalogue.test.ts).
//
// The entries live by kind of network in catalogue/: social.ts, stores.ts (maps and app stores),
// messengers.ts, review-sites.ts; the shared helpers and limits in catalogue/common.ts.

/** The built-in test network (no internet). */
const sandbox: ProviderEntry = {
  id: 'sandbox',
  name: 'Sandbox',
  longName: { ru: 'Песочница (тестовая сеть)', en: 'Sandbox (test network)' },
  description: {
    ru: 'Встроенная тестовая сеть: пишите как клиент и отвечайте как оператор, без интернета.',
    en: 'Built-in test network: write as a customer and answer as an operator, no internet needed.',
  },
  url: null,
  color: '#868E96',
  icon: 'sandbox',
  hidden: false,
  settings: ['exclude', 'exclude_messages', 'reactions'],
  comments: ['comment', 'review'],
  messages: true,
  // Every action, so the whole loop (including 'Direct' and bans) can be tried without a network.
  actions: actions({
    delete: true,
    restore: true,
    reply: true,
    like: true,
    hide: true,
    edit_comment: true,
    direct: true,
    block: true,
    react: true,
  }),
  // Not in SPEC: limits in the range of real networks, so the sandbox exercises limit checks too.
  length: { message: 4096, comment: 4096 },
  upload: { message: 5, comment: 5 },
  reactions: SANDBOX_REACTIONS,
  connect: 'none',
};

const entries = {
  ...socialNetworks,
  ...storesAndMaps,
  ...messengers,
  ...reviewSites,
  sandbox,
} satisfies Record<ProviderId, ProviderEntry>;

/** Every provider's entry by id (lists go in docs/product/entities.md order through PROVIDER_IDS, limits.ts). */
export const providers: Record<ProviderId, ProviderEntry> = entries;
