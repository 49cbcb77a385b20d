// Named routes — docs/product/screens-and-routes.md. The web router, links, redirects and saved filters (keyed by route name) use
// these names; the server may use them to build links in emails and notifications.
//
// `auth`: the route needs a stored token (docs/product/roles.md: otherwise redirect to /login?redirect=<path>).
// `group`: how the web lays the screen out — `public` (auth card), `callback` (login-required popup
// target, no app chrome), `main` and `settings` (inside the app shell), `system` (not-found).

export type RouteGroup = 'public' | 'callback' | 'main' | 'settings' | 'system';

export interface RouteDef {
  readonly path: string;
  readonly auth: boolean;
  readonly group: RouteGroup;
}

const pub = <P extends string>(path: P) => ({ path, auth: false, group: 'public' }) as const;
const callback = <P extends string>(path: P) => ({ path, auth: true, group: 'callback' }) as const;
const main = <P extends string>(path: P) => ({ path, auth: true, group: 'main' }) as const;
const settings = <P extends string>(path: P) =>
  ({ path: `/settings${path}` as `/settings${P}`, auth: true, group: 'settings' }) as const;

export const routes = {
  // Public (no login)
  login: pub('/login'),
  'login-provider': pub('/login/:provider'),
  signup: pub('/signup'),
  'signup-invitation': pub('/signup/:hash'),
  recovery: pub('/recovery'),
  'reset-password': pub('/reset_password/:hash'),
  'confirm-email': pub('/confirm_email/:hash'),
  'delete-request': pub('/deleterequest/:id'),
  'callback-tiktok': pub('/callback/tiktok'),
  // The customer page of a sandbox account: write as a customer, see the account's answers (no login).
  sandbox: pub('/sandbox/:token'),

  // Login-required callbacks (connecting an account in a popup)
  'callback-vk': callback('/callback/vk'),
  'callback-ok': callback('/callback/ok'),
  'callback-facebook': callback('/callback/facebook'),
  'callback-twitter': callback('/callback/twitter'),
  'callback-instagram': callback('/callback/instagram'),
  'callback-youtube': callback('/callback/youtube'),
  'callback-slack': callback('/callback/slack'),
  'callback-google': callback('/callback/google'),
  'callback-gmaps': callback('/callback/gmaps'),
  'callback-avito': callback('/callback/avito'),
  // Issue 19: the Threads authorization window sends the popup back here.
  'callback-threads': callback('/callback/threads'),
  'callback-tpulse': callback('/callback/tpulse'),
  oauth: callback('/oauth'),

  // Statistics
  stats: main('/'),
  'stats-overall': main('/stats/overall'),
  'stats-replies': main('/stats/replies'),
  'stats-reports': main('/stats/reports'),
  'stats-hours': main('/stats/hours'),
  'stats-posts': main('/stats/posts'),
  'stats-tags': main('/stats/tags'),
  'stats-emotions': main('/stats/emotions'),
  'stats-users': main('/stats/users'),
  'stats-users-closed': main('/stats/users/closed'),
  'stats-users-statuses': main('/stats/users/statuses'),
  'stats-user-statuses': main('/stats/users/:id/statuses'),
  'stats-my-statuses': main('/stats/my/statuses'),
  'stats-users-workinghours': main('/stats/users/workinghours'),
  'stats-my': main('/stats/my'),
  'stats-user': main('/stats/users/:id'),
  'stats-user-workinghours': main('/stats/users/:id/workinghours'),
  'stats-export': main('/stats/export'),
  'stats-time': main('/stats/time'),
  'stats-userstime': main('/stats/userstime'),
  'stats-rules': main('/stats/rules'),
  'stats-bots': main('/stats/bots'),
  'stats-csi': main('/stats/csi'),
  'stats-issues': main('/stats/issues'),
  'stats-dashboard': main('/stats/dashboard'),
  'stats-live': main('/stats/live'),
  dashboard: main('/dashboard'),
  live: main('/live'),

  // Work area
  chats: main('/chats'),
  'chat-messages': main('/chats/:id/messages'),
  'chats-authors': main('/chats/authors'),
  items: main('/items'),
  item: main('/items/:id'),
  'items-authors': main('/items/authors'),
  issues: main('/issues'),
  'issue-page': main('/issues/:id'),
  'issues-authors': main('/issues/authors'),
  author: main('/author/:id'),
  csi: main('/csi'),
  qa: main('/qa'),
  'qa-stats': main('/qa/stats'),
  'qa-review': main('/qa/review'),
  'qa-my': main('/qa/my'),
  'qa-item': main('/qa/items/:id'),
  'qa-chat': main('/qa/chats/:id'),
  analytics: main('/analytics'),
  'monitoring-page': main('/monitoring'),
  'youscan-new': main('/youscan/new'),
  youscan: main('/youscan/:id'),
  reports: main('/reports'),

  // Settings
  settings: settings(''),
  'settings-billing': settings('/billing'),
  'settings-billing-report': settings('/billing/report/:id'),
  'settings-labels': settings('/labels'),
  'settings-labels-new': settings('/labels/new'),
  'settings-label': settings('/labels/:id'),
  'settings-label-authors': settings('/labels/:id/authors'),
  'settings-macros': settings('/macros'),
  'settings-macros-new': settings('/macros/new'),
  'settings-macro': settings('/macros/:id'),
  'settings-other': settings('/other'),
  'settings-tags': settings('/tags'),
  'settings-tags-new': settings('/tags/new'),
  'settings-tag': settings('/tags/:id'),
  'settings-tag-children': settings('/tags/:id/children'),
  'settings-tag-groups': settings('/tag_groups'),
  'settings-tag-groups-new': settings('/tag_groups/new'),
  'settings-tag-group': settings('/tag_groups/:id'),
  'settings-templates': settings('/templates'),
  'settings-templates-new': settings('/templates/new'),
  'settings-template': settings('/templates/:id'),
  'settings-rules': settings('/rules'),
  'settings-rules-create': settings('/rules/create'),
  'settings-rule': settings('/rules/:id'),
  'settings-bots': settings('/bots'),
  'settings-bots-create': settings('/bots/create'),
  'settings-bot': settings('/bots/:id'),
  'settings-ai': settings('/ai'),
  'settings-ai-create': settings('/ai/create'),
  'settings-ai-agent': settings('/ai/:id'),
  'settings-logs': settings('/logs'),
  'settings-logsrandom': settings('/logsrandom'),
  'settings-errors': settings('/errors'),
  'settings-referral': settings('/referral'),
  'settings-notifications': settings('/notifications'),
  'settings-email': settings('/email'),
  'settings-accounts': settings('/accounts'),
  'settings-accounts-add': settings('/accounts/add'),
  'settings-accounts-add-success': settings('/accounts/add/success'),
  'settings-account': settings('/accounts/:id'),
  'settings-account-exclude': settings('/accounts/:id/exclude'),
  'settings-accounts-exclude-messages': settings('/accounts/exclude_messages'),
  'settings-accounts-chats': settings('/accounts/chats'),
  'settings-accounts-stickers': settings('/accounts/stickers'),
  'settings-accounts-reactions': settings('/accounts/reactions'),
  'settings-users': settings('/users'),
  'settings-users-new': settings('/users/new'),
  'settings-user': settings('/users/:id'),
  'settings-users-workinghours': settings('/users/workinghours'),
  'settings-users-workinghours-templates': settings('/users/workinghours/templates'),
  'settings-users-workinghours-absences': settings('/users/workinghours/absences'),
  'settings-users-workinghours-my': settings('/users/workinghours/my'),
  'settings-user-workinghours': settings('/users/workinghours/:id'),
  'settings-config': settings('/config'),
  'settings-workinghours': settings('/workinghours'),
  'settings-emotions': settings('/emotions'),
  'settings-csi': settings('/csi'),
  'settings-subscriptions': settings('/subscriptions'),
  'settings-qa': settings('/qa'),
  'settings-issues': settings('/issues'),
  'settings-profile': settings('/profile'),
  'settings-hde-new': settings('/hde/new'),
  'settings-hde': settings('/hde/:id'),
  'settings-custom-facts': settings('/custom/facts'),
  // Public API access (issue 14 item 9): API tokens, outgoing webhooks.
  'settings-api': settings('/api'),
  'settings-webhooks': settings('/webhooks'),

  // Unknown paths
  'not-found': { path: '*', auth: false, group: 'system' },
} as const satisfies Record<string, RouteDef>;

export type RouteName = keyof typeof routes;
export type RoutePath<N extends RouteName> = (typeof routes)[N]['path'];

/** Names of the `:params` in a path: `/a/:id/b/:x` → 'id' | 'x'. */
export type PathParamNames<P extends string> = P extends `${string}:${infer Param}/${infer Rest}`
  ? Param | PathParamNames<`/${Rest}`>
  : P extends `${string}:${infer Param}`
    ? Param
    : never;

/** Routes without params (menu entries, redirects). */
export type StaticRouteName = {
  [N in RouteName]: [PathParamNames<RoutePath<N>>] extends [never] ? N : never;
}[RouteName];

export type RouteParams<N extends RouteName> = Record<PathParamNames<RoutePath<N>>, string | number>;
export type QueryValue = string | number | boolean | null | undefined | ReadonlyArray<string | number>;
export type RouteQuery = Record<string, QueryValue>;

type PathForArgs<N extends RouteName> = [PathParamNames<RoutePath<N>>] extends [never]
  ? [params?: Record<string, never>, query?: RouteQuery]
  : [params: RouteParams<N>, query?: RouteQuery];

export const routeNames = Object.keys(routes) as RouteName[];

export function isRouteName(value: string): value is RouteName {
  return Object.hasOwn(routes, value);
}

/** Query string without array indices (`a=1&a=2`); empty values are left out. Leading `?` included. */
export function queryString(query: RouteQuery | undefined): string {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) for (const item of value) search.append(key, String(item));
    else search.append(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** The path of a named route with its params filled in: pathFor('issue-page', { id: 5 }) → '/issues/5'. */
export function pathFor<N extends RouteName>(name: N, ...[params, query]: PathForArgs<N>): string {
  const values = (params ?? {}) as Record<string, string | number | undefined>;
  const path = routes[name].path.replace(/:(\w+)/g, (_, param: string) => {
    const value = values[param];
    if (value === undefined || value === '') throw new Error(`pathFor(${name}): missing param "${param}"`);
    return encodeURIComponent(String(value));
  });
  return path + queryString(query);
}
