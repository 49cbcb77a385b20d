import { describe, expect, it } from 'vitest';
import {
  type ContentKind,
  connectFields,
  editWindowSeconds,
  getProvider,
  isProviderId,
  listConnectableProviders,
  PROVIDER_IDS,
  type ProviderEntry,
  type ProviderId,
  providerEntrySchema,
  providers,
  relayedBy,
} from './index';

// docs/product/entities.md "Provider ids", in the spec's order.
const SPEC_PROVIDER_IDS = [
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
];

type LimitField =
  | 'length.message'
  | 'length.comment'
  | 'length.messageBytes'
  | 'length.messageAttach'
  | 'length.commentAttach'
  | 'upload.message'
  | 'upload.comment';

function limitOf(entry: ProviderEntry, field: LimitField): number | undefined {
  const [group, key] = field.split('.') as ['length' | 'upload', string];
  return (entry[group] as Record<string, number | undefined>)[key];
}

// docs/product/validation.md "Text limits, message/comment (characters)" — one row per number, with the spec's words.
const SPEC_TEXT_LIMITS: [ProviderId, LimitField, number, string][] = [
  ['vk', 'length.message', 4000, 'vk 4000/10000'],
  ['vk', 'length.comment', 10000, 'vk 4000/10000'],
  ['facebook', 'length.message', 2000, 'facebook 2000/4000'],
  ['facebook', 'length.comment', 4000, 'facebook 2000/4000'],
  ['instagram', 'length.message', 550, 'instagram message 550 chars (1000 bytes)'],
  ['instagram', 'length.messageBytes', 1000, 'instagram message 550 chars (1000 bytes)'],
  ['instagram', 'length.comment', 2000, 'instagram … comment 2000'],
  ['twitter', 'length.message', 9000, 'twitter 9000/280'],
  ['twitter', 'length.comment', 280, 'twitter 9000/280'],
  ['ok', 'length.message', 2000, 'ok 2000/3000'],
  ['ok', 'length.comment', 3000, 'ok 2000/3000'],
  ['youtube', 'length.message', 10000, 'youtube 10000/5000'],
  ['youtube', 'length.comment', 5000, 'youtube 10000/5000'],
  ['gmaps', 'length.comment', 5000, 'gmaps comment 5000'],
  ['googleplay', 'length.comment', 350, 'googleplay comment 350'],
  ['telegram', 'length.message', 4096, 'telegram 4096/4096'],
  ['telegram', 'length.comment', 4096, 'telegram 4096/4096'],
  ['telegram', 'length.messageAttach', 1024, 'telegram (attachment captions 1024)'],
  ['telegram', 'length.commentAttach', 1024, 'telegram (attachment captions 1024)'],
  ['viber', 'length.message', 10000, 'viber message 10000'],
  ['vc', 'length.comment', 3000, 'vc comment 3000'],
  ['flamp', 'length.comment', 3000, 'flamp comment 3000'],
  ['appfollow', 'length.comment', 350, 'appfollow comment 350'],
  ['af_huawei', 'length.comment', 500, 'huawei 500'],
  ['rustore', 'length.comment', 500, 'rustore 500'],
  ['af_itunes', 'length.comment', 5970, 'App Store 5970'],
  ['asodesk_appstore', 'length.comment', 5970, 'App Store 5970'],
  ['af_googleplay', 'length.comment', 350, 'Google Play 350'],
  ['asodesk_googleplay', 'length.comment', 350, 'Google Play 350'],
  ['asodesk_rustore', 'length.comment', 10000, 'asodesk rustore 10000'],
  ['whatsapp', 'length.message', 4096, 'whatsapp 4096'],
  ['userecho', 'length.comment', 32768, 'userecho and useresponse 32768'],
  ['useresponse', 'length.comment', 32768, 'userecho and useresponse 32768'],
  ['pikabu', 'length.comment', 3000, 'pikabu 3000'],
  ['pntr', 'length.comment', 1000, 'pntr 1000'],
  ['bcs', 'length.comment', 5000, 'bcs, bankiru, sravniru 5000'],
  ['bankiru', 'length.comment', 5000, 'bcs, bankiru, sravniru 5000'],
  ['sravniru', 'length.comment', 5000, 'bcs, bankiru, sravniru 5000'],
  ['tiktok', 'length.comment', 150, 'tiktok 150'],
  ['tinkoff', 'length.comment', 1000, 'tinkoff 1000'],
  ['tpulse', 'length.comment', 1000, 'tpulse 1000'],
  ['avito', 'length.message', 1000, 'avito 1000/1000'],
  ['avito', 'length.comment', 1000, 'avito 1000/1000'],
  ['discord', 'length.message', 2000, 'discord 2000'],
  ['discord', 'length.comment', 2000, 'discord 2000'],
  ['max', 'length.message', 4000, 'max 4000'],
  ['max', 'length.comment', 4000, 'max 4000'],
];

// docs/product/validation.md "Attachment counts per message/comment" — one row per number.
const SPEC_ATTACHMENT_COUNTS: [ProviderId, LimitField, number, string][] = [
  ['vk', 'upload.message', 5, 'vk 5/5'],
  ['vk', 'upload.comment', 5, 'vk 5/5'],
  ['facebook', 'upload.message', 1, 'facebook 1/1'],
  ['facebook', 'upload.comment', 1, 'facebook 1/1'],
  ['instagram', 'upload.message', 1, 'instagram message 1'],
  ['twitter', 'upload.comment', 4, 'twitter comment 4'],
  ['twitter', 'upload.message', 1, 'twitter … message 1'],
  ['ok', 'upload.message', 1, 'ok message 1'],
  ['telegram', 'upload.message', 5, 'telegram 5/5'],
  ['telegram', 'upload.comment', 5, 'telegram 5/5'],
  ['whatsapp', 'upload.message', 1, 'whatsapp message 1'],
  ['avito', 'upload.message', 1, 'avito message 1'],
  ['discord', 'upload.message', 5, 'discord 5/5'],
  ['discord', 'upload.comment', 5, 'discord 5/5'],
  ['pikabu', 'upload.comment', 1, 'pikabu comment 1'],
  ['useresponse', 'upload.comment', 5, 'useresponse comment 5'],
  ['max', 'upload.message', 1, 'max message 1'],
];

// Numbers in the catalogue that docs/product/validation.md does not give, each with its source.
const NON_SPEC_LIMITS: [ProviderId, LimitField, number, string][] = [
  ['whatsapp', 'length.messageAttach', 1024, 'PROVIDERS §3 Limits: media captions up to 1024'],
  // SPEC says "threads comment 2000"; the Threads API documents (and refuses past) 500 characters.
  ['threads', 'length.comment', 500, 'Threads API: text posts and replies up to 500 characters'],
  ['sandbox', 'length.message', 4096, 'built-in test network'],
  ['sandbox', 'length.comment', 4096, 'built-in test network'],
  ['sandbox', 'upload.message', 5, 'built-in test network'],
  ['sandbox', 'upload.comment', 5, 'built-in test network'],
];

const LIMIT_FIELDS: LimitField[] = [
  'length.message',
  'length.comment',
  'length.messageBytes',
  'length.messageAttach',
  'length.commentAttach',
  'upload.message',
  'upload.comment',
];

describe('provider ids', () => {
  it('has every docs/product/entities.md id plus sandbox, and nothing else', () => {
    expect([...PROVIDER_IDS]).toEqual([...SPEC_PROVIDER_IDS, 'sandbox']);
    expect(SPEC_PROVIDER_IDS).toHaveLength(38);
    expect(Object.keys(providers).sort()).toEqual([...PROVIDER_IDS].sort());
  });

  it.each(PROVIDER_IDS)('%s: entry is keyed by its own id and resolves', (id) => {
    expect(providers[id].id).toBe(id);
    expect(getProvider(id)).toBe(providers[id]);
    expect(isProviderId(id)).toBe(true);
  });

  it('rejects what is not a provider id', () => {
    for (const value of ['VK', 'google', '', 'sandbox ', 42, null, undefined, {}]) {
      expect(isProviderId(value)).toBe(false);
    }
  });
});

describe('catalogue entries', () => {
  it.each(PROVIDER_IDS)('%s validates against the entry schema', (id) => {
    const result = providerEntrySchema.safeParse(providers[id]);
    expect(result.success ? [] : result.error.issues).toEqual([]);
  });

  it('the schema rejects an inconsistent entry', () => {
    const broken = { ...providers.viber, length: { message: 10000, comment: 10 } };
    expect(providerEntrySchema.safeParse(broken).success).toBe(false);
    const noReactionSet = { ...providers.telegram, reactions: null };
    expect(providerEntrySchema.safeParse(noReactionSet).success).toBe(false);
    const badColor = { ...providers.vk, color: 'blue' };
    expect(providerEntrySchema.safeParse(badColor).success).toBe(false);
    const extraField = { ...providers.vk, svg: '<svg/>' };
    expect(providerEntrySchema.safeParse(extraField).success).toBe(false);
  });

  it('every provider can be replied to', () => {
    for (const id of PROVIDER_IDS) expect(providers[id].actions.reply, id).toBe(true);
  });

  it('offers only non-hidden providers for connecting', () => {
    const offered = listConnectableProviders().map((entry) => entry.id);
    expect(offered).toContain('sandbox');
    expect(offered).not.toContain('appfollow');
    expect(offered).not.toContain('asodesk');
    expect(offered).toHaveLength(PROVIDER_IDS.filter((id) => !providers[id].hidden).length);
  });
});

describe('docs/product/validation.md limits', () => {
  it.each(SPEC_TEXT_LIMITS)('text: %s %s = %i (docs/product/validation.md "%s")', (id, field, expected) => {
    expect(limitOf(providers[id], field)).toBe(expected);
  });

  it.each(SPEC_ATTACHMENT_COUNTS)(
    'attachments: %s %s = %i (docs/product/validation.md "%s")',
    (id, field, expected) => {
      expect(limitOf(providers[id], field)).toBe(expected);
    },
  );

  it.each(NON_SPEC_LIMITS)('outside SPEC: %s %s = %i (%s)', (id, field, expected) => {
    expect(limitOf(providers[id], field)).toBe(expected);
  });

  it('holds no limit number beyond those tables', () => {
    const listed = new Set(
      [...SPEC_TEXT_LIMITS, ...SPEC_ATTACHMENT_COUNTS, ...NON_SPEC_LIMITS].map(
        ([id, field]) => `${id} ${field}`,
      ),
    );
    const present = PROVIDER_IDS.flatMap((id) =>
      LIMIT_FIELDS.filter((field) => limitOf(providers[id], field) !== undefined).map(
        (field) => `${id} ${field}`,
      ),
    );
    expect(present.filter((key) => !listed.has(key))).toEqual([]);
    expect(present).toHaveLength(listed.size);
  });
});

describe('docs/product/limits.md edit windows and PROVIDERS actions', () => {
  it('VK comments stay editable 43200 s, vc 1200 s', () => {
    expect(providers.vk.actions.edit_comment).toBe(43200);
    expect(providers.vc.actions.edit_comment).toBe(1200);
    expect(editWindowSeconds('vk')).toBe(43200);
    expect(editWindowSeconds('vc')).toBe(1200);
  });

  it('VK can delete, restore and like comments; Telegram deletes but cannot restore (PROVIDERS §0–2)', () => {
    expect(providers.vk.actions).toMatchObject({ delete: true, restore: true, like: true, hide: false });
    expect(providers.telegram.actions).toMatchObject({ delete: true, restore: false, hide: false });
  });

  it('WhatsApp and Viber cannot delete or edit sent messages (PROVIDERS §3, §7b)', () => {
    for (const id of ['whatsapp', 'viber'] as const) {
      expect(providers[id].actions).toMatchObject({ delete: false, edit_comment: false });
    }
  });
});

describe('kinds and connect flows', () => {
  const reviewStores: ProviderId[] = [
    'gmaps',
    'googleplay',
    'appfollow',
    'af_huawei',
    'af_xstore',
    'af_itunes',
    'af_googleplay',
    'asodesk',
    'asodesk_googleplay',
    'asodesk_appstore',
    'asodesk_rustore',
    'rustore',
  ];

  it.each(reviewStores)('%s delivers reviews only', (id) => {
    expect(providers[id].comments).toEqual<ContentKind[]>(['review']);
    expect(providers[id].messages).toBe(false);
  });

  it('messengers carry messages only', () => {
    for (const id of ['whatsapp', 'viber', 'jivo'] as const) {
      expect(providers[id].messages).toBe(true);
      expect(providers[id].comments).toEqual([]);
    }
  });

  it('review sites without a public API connect with an ingestion token', () => {
    for (const id of [
      'bankiru',
      'sravniru',
      'pikabu',
      'flamp',
      'tpulse',
      'bcs',
      'tinkoff',
      'pntr',
      'vc',
    ] as const) {
      expect(providers[id].connect, id).toBe('ingest_token');
    }
  });

  it('docs/product/screens-and-routes.md popup callbacks connect by OAuth', () => {
    const popup: ProviderId[] = ['vk', 'ok', 'facebook', 'twitter', 'instagram', 'youtube', 'gmaps', 'avito'];
    for (const id of [...popup, 'tiktok'] as const) expect(providers[id].connect, id).toBe('oauth');
  });

  it('app stores connect with typed keys: a service-account JSON (Google Play), a Public API key (RuStore)', () => {
    expect(providers.googleplay.connect).toBe('credentials');
    expect(providers.rustore.connect).toBe('credentials');
    expect(connectFields('googleplay').map((f) => [f.name, f.secret, Boolean(f.multiline)])).toEqual([
      ['package_name', false, false],
      ['service_account_json', true, true],
    ]);
    expect(connectFields('rustore').map((f) => [f.name, f.secret, Boolean(f.multiline)])).toEqual([
      ['package_name', false, false],
      ['key_id', false, false],
      ['private_key', true, true],
    ]);
  });

  it('stores relayed by an aggregator are checked with the aggregator, direct ones with nobody else', () => {
    for (const id of ['appfollow', 'af_googleplay', 'af_itunes', 'af_huawei', 'af_xstore'] as const)
      expect(relayedBy(id), id).toBe('AppFollow');
    for (const id of ['asodesk', 'asodesk_googleplay', 'asodesk_appstore', 'asodesk_rustore'] as const)
      expect(relayedBy(id), id).toBe('Asodesk');
    for (const id of ['googleplay', 'rustore', 'telegram'] as const) expect(relayedBy(id), id).toBeNull();
  });

  it('bots connect with a token', () => {
    for (const id of ['telegram', 'viber', 'discord', 'max'] as const) {
      expect(providers[id].connect, id).toBe('bot_token');
    }
  });

  it('every form-based connect flow has a hint', () => {
    for (const id of PROVIDER_IDS) {
      const { connect, formHint } = providers[id];
      if (connect === 'bot_token' || connect === 'credentials' || connect === 'ingest_token') {
        expect(formHint, id).toBeDefined();
      }
    }
  });

  it('the sandbox needs no network and supports the whole loop', () => {
    const { sandbox } = providers;
    expect(sandbox.connect).toBe('none');
    expect(sandbox.hidden).toBe(false);
    expect(sandbox.comments).toEqual(expect.arrayContaining(['comment', 'review']));
    expect(sandbox.messages).toBe(true);
    expect(sandbox.actions).toMatchObject({
      reply: true,
      delete: true,
      restore: true,
      like: true,
      hide: true,
      edit_comment: true,
      react: true,
    });
    expect(sandbox.reactions?.items.length).toBeGreaterThan(0);
    expect(sandbox.reactions?.items.length).toBeLessThanOrEqual(10);
  });
});
