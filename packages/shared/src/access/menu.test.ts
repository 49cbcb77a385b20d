import { describe, expect, it } from 'vitest';
import { ACCESS_LABELS, type AccessLabelKey, accessLabel } from './labels';
import {
  homeRoute,
  isExportAvailable,
  MENU_ENTRIES,
  MENU_KEYS,
  type MenuContext,
  type MenuKey,
  SETTINGS_ENTRIES,
  SETTINGS_ENTRY_KEYS,
  type SettingsEntryKey,
  USER_MENU_ENTRIES,
  visibleMenu,
  visibleSettingsEntries,
  visibleUserMenu,
} from './menu';
import { parseRoleFlags, ROLE_PRESET_NAMES, type RolePresetName } from './roles';
import { ACCESS_ROUTE_NAMES } from './routes-used';
import {
  actorWithRole,
  buildActor,
  buildMembership,
  buildSpace,
  NO_FEATURES,
  type SpaceOverrides,
  STANDARD_TARIFF,
} from './test-factories';
import type { Actor, ObjectLike } from './types';

const VK: ObjectLike = { id: 1, provider: 'vk' };
const YOUTUBE: ObjectLike = { id: 2, provider: 'youtube' };

const ctx = (actor: Actor, extra: Partial<Omit<MenuContext, 'actor'>> = {}): MenuContext => ({
  actor,
  hasCompanies: true,
  objects: [VK],
  ...extra,
});

const menuKeys = (c: MenuContext) => visibleMenu(c).map((entry) => entry.key);
const settingsKeys = (c: Pick<MenuContext, 'actor'>) => visibleSettingsEntries(c).map((entry) => entry.key);

/** Top bar per named role, in a space with every feature on, with companies and one account. */
const EXPECTED_MENU: Record<RolePresetName, readonly MenuKey[]> = {
  'read-only': ['chats', 'items', 'monitoring'],
  analyst: ['stats', 'chats', 'items', 'analytics', 'monitoring', 'reports', 'csi'],
  moderator: ['stats', 'chats', 'items', 'monitoring'],
  operator: ['stats', 'chats', 'items', 'monitoring', 'issues', 'qa'],
  administrator: MENU_KEYS,
};

/** Settings dropdown per named role, in a space with every feature on and a special tariff. */
const EXPECTED_SETTINGS: Record<RolePresetName, readonly SettingsEntryKey[]> = {
  'read-only': [],
  analyst: [],
  moderator: [],
  operator: ['templates'],
  administrator: SETTINGS_ENTRY_KEYS,
};

describe('top bar: named roles × menu entries', () => {
  const cases = ROLE_PRESET_NAMES.flatMap((role) =>
    MENU_KEYS.map((key) => [role, key, EXPECTED_MENU[role].includes(key)] as const),
  );

  it.each(cases)('%s sees %s → %s', (role, key, expected) => {
    expect(menuKeys(ctx(actorWithRole(role))).includes(key)).toBe(expected);
  });

  it.each(ROLE_PRESET_NAMES)('%s: entries in SPEC order', (role) => {
    expect(menuKeys(ctx(actorWithRole(role)))).toEqual(EXPECTED_MENU[role]);
  });

  it('features off: an administrator keeps statistics, messages and comments only', () => {
    const space = buildSpace({ settings: NO_FEATURES });
    expect(menuKeys(ctx(actorWithRole('administrator', space)))).toEqual(['stats', 'chats', 'items']);
  });

  const FEATURE_ENTRY: [MenuKey, SpaceOverrides][] = [
    ['analytics', { settings: { analytics: false } }],
    ['monitoring', { settings: { monitoring_count: 0, youscan: false } }],
    ['issues', { settings: { issues: false } }],
    ['reports', { settings: { reports: false } }],
    ['csi', { settings: { csi_menu: false } }],
    ['qa', { settings: { qa: false } }],
  ];

  it.each(FEATURE_ENTRY)('%s needs a space that enables it', (key, off) => {
    expect(menuKeys(ctx(actorWithRole('administrator', buildSpace(off))))).not.toContain(key);
    // One enabling space among several is enough (docs/product/roles.md).
    const actor = buildActor([
      buildMembership('administrator', buildSpace(off)),
      buildMembership('administrator', buildSpace()),
    ]);
    expect(menuKeys(ctx(actor))).toContain(key);
  });

  it('the feature and the role must meet in one space', () => {
    const actor = buildActor([
      buildMembership('operator', buildSpace({ settings: { issues: false } })),
      buildMembership('read-only', buildSpace()),
    ]);
    expect(menuKeys(ctx(actor))).not.toContain('issues');
  });

  it.each([
    ['companies, no accounts', { hasCompanies: true, objects: [] }, ['stats']],
    ['no companies, no accounts', { hasCompanies: false, objects: [] }, ['stats', 'chats', 'items']],
    ['companies and an account', { hasCompanies: true, objects: [VK] }, ['stats', 'chats', 'items']],
  ] as const)('messages and comments with %s', (_, extra, expected) => {
    const space = buildSpace({ settings: NO_FEATURES });
    expect(
      menuKeys(ctx(actorWithRole('administrator', space), { ...extra, objects: [...extra.objects] })),
    ).toEqual(expected);
  });

  it('personal messages need the messages role; comments the items role', () => {
    const commentsOnly = actorWithRole(parseRoleFlags({ items: true }));
    expect(menuKeys(ctx(commentsOnly))).toEqual(['items']);
    const messagesOnly = actorWithRole(parseRoleFlags({ messages: true }));
    expect(menuKeys(ctx(messagesOnly))).toEqual(['chats']);
  });

  it('no spaces: an empty top bar and the profile as home', () => {
    const c = ctx(buildActor([]), { hasCompanies: false, objects: [] });
    expect(visibleMenu(c)).toEqual([]);
    expect(homeRoute(c)).toBe('settings-profile');
  });

  it.each<[RolePresetName, string]>([
    ['read-only', 'chats'],
    ['analyst', 'stats'],
    ['operator', 'stats'],
  ])('home of %s is %s', (role, route) => {
    expect(homeRoute(ctx(actorWithRole(role)))).toBe(route);
  });

  it('the quality-check permission alone shows Quality check', () => {
    expect(menuKeys(ctx(actorWithRole(parseRoleFlags({ qa: true }))))).toEqual(['qa']);
  });
});

describe('settings dropdown: named roles × settings entries', () => {
  const cases = ROLE_PRESET_NAMES.flatMap((role) =>
    SETTINGS_ENTRY_KEYS.map((key) => [role, key, EXPECTED_SETTINGS[role].includes(key)] as const),
  );

  it.each(cases)('%s sees %s → %s', (role, key, expected) => {
    expect(settingsKeys(ctx(actorWithRole(role))).includes(key)).toBe(expected);
  });

  it('special entries are auto-rules, CSI, quality check and emotions', () => {
    expect(SETTINGS_ENTRIES.filter((entry) => entry.special).map((entry) => entry.key)).toEqual([
      'rules',
      'csi',
      'qa',
      'emotions',
    ]);
  });

  it.each([1, 2, 10])('standard tariff %i hides the special entries', (id) => {
    const space = buildSpace({ tariff: { id, name: 'Standard' } });
    expect(settingsKeys(ctx(actorWithRole('administrator', space)))).toEqual(
      SETTINGS_ENTRY_KEYS.filter((key) => !['rules', 'csi', 'qa', 'emotions'].includes(key)),
    );
  });

  it('some space with a special tariff shows them', () => {
    const actor = buildActor([
      buildMembership('administrator', buildSpace({ tariff: STANDARD_TARIFF })),
      buildMembership('administrator', buildSpace()),
    ]);
    expect(settingsKeys(ctx(actor))).toEqual(SETTINGS_ENTRY_KEYS);
  });

  it('every feature off, special tariff: the entries that need no feature', () => {
    const space = buildSpace({ settings: NO_FEATURES });
    expect(settingsKeys(ctx(actorWithRole('administrator', space)))).toEqual([
      'accounts',
      'users',
      'billing',
      'tags',
      'rules',
      'errors',
      'email',
      'workinghours',
      'emotions',
      // Public API access (issue 14 item 9) needs no feature flag.
      'api',
      'webhooks',
    ]);
  });

  const FEATURE_ENTRY: [SettingsEntryKey, SpaceOverrides][] = [
    ['schedule', { settings: { user_workinghours: false } }],
    ['labels', { settings: { labels: false } }],
    ['templates', { settings: { templates: false } }],
    ['macros', { settings: { macros: false } }],
    ['bots', { settings: { bots: false } }],
    ['ai', { settings: { ai: false } }],
    ['audit', { settings: { audit: false } }],
    ['random', { settings: { random: false } }],
    ['subscriptions', { settings: { subscriptions: false } }],
    ['csi', { settings: { csi_menu: false } }],
    ['qa', { settings: { qa: false } }],
    ['issues', { settings: { issues: false } }],
  ];

  it.each(FEATURE_ENTRY)('%s needs its space feature', (key, off) => {
    expect(settingsKeys(ctx(actorWithRole('administrator', buildSpace(off))))).not.toContain(key);
  });

  it('an operator sees reply templates only where the space enables them', () => {
    expect(
      settingsKeys(ctx(actorWithRole('operator', buildSpace({ settings: { templates: false } })))),
    ).toEqual([]);
  });

  it('the quality-check permission shows Quality check on a special tariff only', () => {
    const qa = parseRoleFlags({ items: true, qa: true });
    expect(settingsKeys(ctx(actorWithRole(qa)))).toEqual(['qa']);
    expect(settingsKeys(ctx(actorWithRole(qa, buildSpace({ tariff: STANDARD_TARIFF }))))).toEqual([]);
  });
});

describe('export (docs/product/roles.md)', () => {
  const paid = buildSpace({ is_trial: false });
  const trial = buildSpace({ is_trial: true });

  it.each<[string, Actor, ObjectLike[], boolean]>([
    ['paid space, no accounts', actorWithRole('analyst', paid), [], true],
    ['trial, no accounts', actorWithRole('analyst', trial), [], false],
    ['trial, accounts without YouTube', actorWithRole('analyst', trial), [VK], true],
    ['trial, a YouTube account among them', actorWithRole('analyst', trial), [VK, YOUTUBE], false],
    ['paid space with YouTube', actorWithRole('analyst', paid), [YOUTUBE], true],
    ['operator (no statistics) in a paid space', actorWithRole('operator', paid), [VK], false],
    [
      'exports only in a trial, read-only in a paid space',
      buildActor([buildMembership('analyst', trial), buildMembership('read-only', paid)]),
      [],
      false,
    ],
    ['administrator in a paid space', actorWithRole('administrator', paid), [], true],
  ])('%s → %s', (_, actor, objects, expected) => {
    expect(isExportAvailable({ actor, objects })).toBe(expected);
  });
});

describe('user menu', () => {
  it('referral is for partners only', () => {
    const keys = (isPartner: boolean) =>
      visibleUserMenu({ actor: actorWithRole('operator', undefined, isPartner) }).map((entry) => entry.key);
    expect(keys(false)).toEqual(['notifications', 'profile', 'config', 'help', 'logout']);
    expect(keys(true)).toEqual(['notifications', 'profile', 'config', 'referral', 'help', 'logout']);
  });
});

describe('labels and routes', () => {
  const entries = [...MENU_ENTRIES, ...SETTINGS_ENTRIES, ...USER_MENU_ENTRIES];

  it('every entry has a route from ACCESS_ROUTE_NAMES (or none) and unique keys', () => {
    for (const entry of entries) {
      if (entry.route !== null) expect(ACCESS_ROUTE_NAMES).toContain(entry.route);
    }
    expect(new Set(MENU_ENTRIES.map((e) => e.key)).size).toBe(MENU_ENTRIES.length);
    expect(new Set(SETTINGS_ENTRIES.map((e) => e.route)).size).toBe(SETTINGS_ENTRIES.length);
  });

  it('route names are unique', () => {
    expect(new Set(ACCESS_ROUTE_NAMES).size).toBe(ACCESS_ROUTE_NAMES.length);
  });

  it('every label exists in both languages', () => {
    const keys = Object.keys(ACCESS_LABELS.ru).sort();
    expect(Object.keys(ACCESS_LABELS.en).sort()).toEqual(keys);
    for (const key of keys) {
      expect(ACCESS_LABELS.ru[key as AccessLabelKey]).not.toBe('');
      expect(ACCESS_LABELS.en[key as AccessLabelKey]).not.toBe('');
    }
  });

  it('top bar labels', () => {
    expect(MENU_ENTRIES.map((e) => accessLabel(e.labelKey, 'ru'))).toEqual([
      'Статистика',
      'Личные сообщения',
      'Комментарии',
      'Аналитика',
      'Мониторинг',
      'Задачи',
      'Отчеты',
      'CSI',
      'Контроль качества',
    ]);
    expect(MENU_ENTRIES.map((e) => accessLabel(e.labelKey, 'en'))).toEqual([
      'Statistics',
      'Personal messages',
      'Comments',
      'Analytics',
      'Monitoring',
      'Tasks',
      'Reports',
      'CSI',
      'Quality check',
    ]);
  });

  it('settings labels, in docs/product/screens-and-routes.md order', () => {
    expect(SETTINGS_ENTRIES.map((e) => accessLabel(e.labelKey, 'ru'))).toEqual([
      'Аккаунты',
      'Пользователи',
      'График работы',
      'Оплата',
      'Теги',
      'Метки авторов',
      'Шаблоны ответов',
      'Макросы',
      'Автоправила',
      'Чат-боты',
      'AI-ассистент',
      'Журнал действий',
      'Случайные ответы',
      'Ошибки',
      'Подписки',
      'Рассылка email',
      'Рабочее время',
      'CSI',
      'Контроль качества',
      'Эмоции',
      'Задачи',
      'API-токены',
      'Вебхуки',
    ]);
    expect(SETTINGS_ENTRIES.map((e) => accessLabel(e.labelKey, 'en'))).toEqual([
      'Accounts',
      'Users',
      'Working schedule',
      'Billing',
      'Tags',
      'Author labels',
      'Reply templates',
      'Macros',
      'Auto-rules',
      'Chat-bots',
      'AI assistant',
      'Action log',
      'Random replies',
      'Errors',
      'Subscriptions',
      'Email sending',
      'Working hours',
      'CSI',
      'Quality check',
      'Emotions',
      'Tasks',
      'API tokens',
      'Webhooks',
    ]);
  });
});
