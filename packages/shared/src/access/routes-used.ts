// Route names the access rules refer to (docs/product/screens-and-routes.md). Every name here must exist in the router's table
// (packages/shared/src/routes.ts); this list is kept separate so the two can be reconciled, and its
// types are prefixed (AccessRouteName) so both modules can be re-exported from the package root.

/** Public routes (no login, docs/product/screens-and-routes.md). The access gate never blocks them. */
export const PUBLIC_ROUTE_NAMES = [
  'login',
  'login-provider',
  'signup',
  'signup-invitation',
  'recovery',
  'reset-password',
  'confirm-email',
  'delete-request',
  'callback-tiktok',
] as const;

/** Top-bar sections (docs/product/screens-and-routes.md "Main area"); `stats` is `/`. */
export const MAIN_ROUTE_NAMES = [
  'stats',
  'stats-export',
  'chats',
  'items',
  'issues',
  'issue-page',
  'analytics',
  // docs/product/screens-and-routes.md names this route monitoring-page (saved filters are keyed by it).
  'monitoring-page',
  'reports',
  'csi',
  'qa',
] as const;

/** Settings area (docs/product/screens-and-routes.md), `/settings/...`. */
export const SETTINGS_ROUTE_NAMES = [
  'settings',
  'settings-accounts',
  'settings-users',
  'settings-users-workinghours',
  'settings-billing',
  'settings-billing-report',
  'settings-tags',
  'settings-labels',
  'settings-templates',
  'settings-macros',
  'settings-rules',
  'settings-bots',
  'settings-ai',
  'settings-logs',
  'settings-logsrandom',
  'settings-errors',
  'settings-subscriptions',
  'settings-email',
  'settings-workinghours',
  'settings-csi',
  'settings-qa',
  'settings-emotions',
  'settings-issues',
  'settings-profile',
  'settings-config',
  'settings-notifications',
  'settings-referral',
  'settings-api',
  'settings-webhooks',
] as const;

export const ACCESS_ROUTE_NAMES = [
  ...PUBLIC_ROUTE_NAMES,
  ...MAIN_ROUTE_NAMES,
  ...SETTINGS_ROUTE_NAMES,
] as const;

export type PublicRouteName = (typeof PUBLIC_ROUTE_NAMES)[number];
/** A route name the access rules use; a subset of the router's names. */
export type AccessRouteName = (typeof ACCESS_ROUTE_NAMES)[number];

export function isPublicRouteName(name: string): name is PublicRouteName {
  return (PUBLIC_ROUTE_NAMES as readonly string[]).includes(name);
}
