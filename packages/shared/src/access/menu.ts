import type { AccessLabelKey } from './labels';
import { ABILITY_RULES, type Ability, can, canInSpace } from './permissions';
import type { AccessRouteName } from './routes-used';
import type { Actor, ObjectLike } from './types';

// What the top bar, the settings dropdown and the user menu show (docs/product/screens-and-routes.md, roles.md). Each entry names the
// abilities that open it, so the menus and the server's policies can never disagree.

export interface MenuContext {
  actor: Actor;
  /** Some company exists in the user's spaces (GET v1/objects returned companies). */
  hasCompanies: boolean;
  /** The connected accounts (objects) the user sees. */
  objects: readonly ObjectLike[];
}

export const MENU_KEYS = [
  'stats',
  'chats',
  'items',
  'analytics',
  'monitoring',
  'issues',
  'reports',
  'csi',
  'qa',
] as const;
export type MenuKey = (typeof MENU_KEYS)[number];

export interface MenuEntry {
  readonly key: MenuKey;
  readonly route: AccessRouteName;
  readonly labelKey: AccessLabelKey;
  /** Shown when any of these is allowed in any space. */
  readonly abilities: readonly Ability[];
  /** docs/product/roles.md: when companies exist, the entry also needs at least one connected account. */
  readonly needsObjects: boolean;
}

const menuEntry = (
  key: MenuKey,
  route: AccessRouteName,
  abilities: readonly Ability[],
  needsObjects = false,
): MenuEntry => ({ key, route, labelKey: `menu.${key}`, abilities, needsObjects });

/** Top-bar entries in docs/product/screens-and-routes.md order. */
export const MENU_ENTRIES: readonly MenuEntry[] = [
  // Team statistics for analysts; everyone who acts on content also has personal tabs (stats/my).
  menuEntry('stats', 'stats', ['stats.view', 'stats.viewOwn']),
  menuEntry('chats', 'chats', ['messages.view'], true),
  menuEntry('items', 'items', ['items.view'], true),
  menuEntry('analytics', 'analytics', ['analytics.view']),
  menuEntry('monitoring', 'monitoring-page', ['monitoring.view']),
  menuEntry('issues', 'issues', ['issues.view']),
  menuEntry('reports', 'reports', ['reports.view']),
  menuEntry('csi', 'csi', ['csi.view']),
  // Reviewers, and operators reading the reviews of their own replies (qa/my).
  menuEntry('qa', 'qa', ['qa.review', 'qa.viewOwn']),
];

function hasObjectsIfNeeded(entry: { needsObjects: boolean }, ctx: MenuContext): boolean {
  return !entry.needsObjects || !ctx.hasCompanies || ctx.objects.length > 0;
}

/** Top-bar entries the user sees, in order. */
export function visibleMenu(ctx: MenuContext): MenuEntry[] {
  return MENU_ENTRIES.filter(
    (entry) => entry.abilities.some((ability) => can(ctx.actor, ability)) && hasObjectsIfNeeded(entry, ctx),
  );
}

/** Where to land after login or on `/` when Statistics is hidden: the first visible section. */
export function homeRoute(ctx: MenuContext): AccessRouteName {
  return visibleMenu(ctx)[0]?.route ?? 'settings-profile';
}

/**
 * docs/product/roles.md: export is available when some space is not a trial, or when connected objects exist and none
 * is YouTube. It is a statistics tab, so the user must also be allowed to export (`stats.export`) —
 * and the "not a trial" space must be one where they are.
 */
export function isExportAvailable(ctx: Pick<MenuContext, 'actor' | 'objects'>): boolean {
  const exportable = ctx.actor.memberships.filter((m) => canInSpace(m, 'stats.export'));
  if (exportable.length === 0) return false;
  if (exportable.some((m) => !m.space.is_trial)) return true;
  return ctx.objects.length > 0 && ctx.objects.every((o) => o.provider !== 'youtube');
}

export const SETTINGS_ENTRY_KEYS = [
  'accounts',
  'users',
  'schedule',
  'billing',
  'tags',
  'labels',
  'templates',
  'macros',
  'rules',
  'bots',
  'ai',
  'audit',
  'random',
  'errors',
  'subscriptions',
  'email',
  'workinghours',
  'csi',
  'qa',
  'emotions',
  'issues',
  'api',
  'webhooks',
] as const;
export type SettingsEntryKey = (typeof SETTINGS_ENTRY_KEYS)[number];

export interface SettingsEntry {
  readonly key: SettingsEntryKey;
  readonly route: AccessRouteName;
  readonly labelKey: AccessLabelKey;
  /** Shown when this is allowed in some space: its rule holds the role flags and space features. */
  readonly ability: Ability;
  /** docs/product/roles.md special entry: needs a space whose tariff id is not 1, 2 or 10. */
  readonly special: boolean;
}

const settingsEntry = (key: SettingsEntryKey, route: AccessRouteName, ability: Ability): SettingsEntry => ({
  key,
  route,
  labelKey: `settings.${key}`,
  ability,
  special: ABILITY_RULES[ability].features.includes('specialTariff'),
});

/** Settings dropdown entries in docs/product/screens-and-routes.md order. */
export const SETTINGS_ENTRIES: readonly SettingsEntry[] = [
  settingsEntry('accounts', 'settings-accounts', 'accounts.manage'),
  settingsEntry('users', 'settings-users', 'users.manage'),
  // "Working schedule" is the users' shift schedule (users/workinghours), behind user_workinghours.
  settingsEntry('schedule', 'settings-users-workinghours', 'schedule.manage'),
  settingsEntry('billing', 'settings-billing', 'billing.view'),
  settingsEntry('tags', 'settings-tags', 'tags.manage'),
  settingsEntry('labels', 'settings-labels', 'labels.manage'),
  settingsEntry('templates', 'settings-templates', 'templates.manage'),
  settingsEntry('macros', 'settings-macros', 'macros.manage'),
  settingsEntry('rules', 'settings-rules', 'rules.manage'),
  settingsEntry('bots', 'settings-bots', 'bots.manage'),
  settingsEntry('ai', 'settings-ai', 'ai.manage'),
  settingsEntry('audit', 'settings-logs', 'audit.view'),
  settingsEntry('random', 'settings-logsrandom', 'random.view'),
  settingsEntry('errors', 'settings-errors', 'errors.view'),
  settingsEntry('subscriptions', 'settings-subscriptions', 'subscriptions.manage'),
  settingsEntry('email', 'settings-email', 'email.manage'),
  // "Working hours" is the company's business hours (settings/workinghours).
  settingsEntry('workinghours', 'settings-workinghours', 'workinghours.manage'),
  settingsEntry('csi', 'settings-csi', 'csi.manage'),
  settingsEntry('qa', 'settings-qa', 'qa.manage'),
  settingsEntry('emotions', 'settings-emotions', 'emotions.manage'),
  settingsEntry('issues', 'settings-issues', 'issues.manage'),
  // Public API access (issue 14 item 9): a space's tokens and webhooks are its administrators'.
  settingsEntry('api', 'settings-api', 'settings.manage'),
  settingsEntry('webhooks', 'settings-webhooks', 'settings.manage'),
];

/**
 * Settings dropdown entries the user sees, in order; the dropdown itself is hidden when empty.
 * An entry shows when one space both enables its feature (and tariff, for special entries) and gives
 * the user a role that opens it — administrators all, an operator only their own flag's entries.
 */
export function visibleSettingsEntries(ctx: Pick<MenuContext, 'actor'>): SettingsEntry[] {
  return SETTINGS_ENTRIES.filter((entry) => can(ctx.actor, entry.ability));
}

export const USER_MENU_KEYS = ['notifications', 'profile', 'config', 'referral', 'help', 'logout'] as const;
export type UserMenuKey = (typeof USER_MENU_KEYS)[number];

export interface UserMenuEntry {
  readonly key: UserMenuKey;
  /** null: not a route (help opens the documentation, logout is an action). */
  readonly route: AccessRouteName | null;
  readonly labelKey: AccessLabelKey;
}

export const USER_MENU_ENTRIES: readonly UserMenuEntry[] = [
  { key: 'notifications', route: 'settings-notifications', labelKey: 'userMenu.notifications' },
  { key: 'profile', route: 'settings-profile', labelKey: 'userMenu.profile' },
  { key: 'config', route: 'settings-config', labelKey: 'userMenu.config' },
  { key: 'referral', route: 'settings-referral', labelKey: 'userMenu.referral' },
  { key: 'help', route: null, labelKey: 'userMenu.help' },
  { key: 'logout', route: null, labelKey: 'userMenu.logout' },
];

/** docs/product/screens-and-routes.md user menu; the referral program is for partners only (docs/product/roles.md). */
export function visibleUserMenu(ctx: Pick<MenuContext, 'actor'>): UserMenuEntry[] {
  return USER_MENU_ENTRIES.filter((entry) => entry.key !== 'referral' || ctx.actor.user.is_partner);
}

export function canSeeReferral(actor: Actor): boolean {
  return actor.user.is_partner;
}
