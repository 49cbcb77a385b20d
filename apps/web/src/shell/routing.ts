import { type RouteName, routeNames, routes } from '@otklik/shared/routes';
import { matchPath } from 'react-router';

// Small rules of the top bar that depend only on the address: the filter count and the back arrow.

/** Query parameters that are not filters: paging, sorting, language, tabs and redirects. */
export const NON_FILTER_PARAMS = [
  'locale',
  'page',
  'per_page',
  'limit',
  'sort',
  'order',
  'tab',
  'week',
  'redirect',
];

/**
 * The generic count of applied filters — distinct query parameters of the current route that are filters
 * (`status=new&status=open` is one filter). A screen may name its filter keys. Screens whose filters have
 * defaults or validation (the comment and chat lists) give their own count instead: see filterButtonCount.
 */
export function countAppliedFilters(search: string, keys?: readonly string[]): number {
  const params = new URLSearchParams(search);
  const names = new Set<string>();
  for (const [name, value] of params) {
    if (value === '') continue;
    if (keys ? keys.includes(name) : !NON_FILTER_PARAMS.includes(name)) names.add(name);
  }
  return names.size;
}

/** What a screen tells the top bar about its filters (shell/FilterSlot). */
export interface FilterCounting {
  /** Query parameters that are the screen's filters (default: every parameter but paging/tabs/locale). */
  keys?: readonly string[];
  /** The screen's own count of an address — the same function its list uses, so both agree. */
  count?: (search: string) => number;
}

/**
 * docs/product/screens-and-routes.md filter button: the number of applied filters. A screen that parses its filters (defaults,
 * unknown values dropped) counts them itself, so the button never disagrees with the list.
 */
export function filterButtonCount(search: string, counting?: FilterCounting | null): number {
  if (counting?.count) return counting.count(search);
  return countAppliedFilters(search, counting?.keys);
}

const staticAndParamPaths = routeNames
  .filter((name) => routes[name].group === 'main' || routes[name].group === 'settings')
  .map((name) => routes[name].path);

function isKnownPath(pathname: string): boolean {
  return staticAndParamPaths.some((path) => matchPath({ path, end: true }, pathname) !== null);
}

/**
 * Statistics tabs and the sections of the working schedule are siblings, not details: no back arrow
 * between them (and "my schedule" must not lead to the team's schedule, which most members cannot open).
 */
const TAB_ROUTES = new Set<string>([
  ...routeNames.filter(
    (name) =>
      (name.startsWith('stats') && !routes[name].path.includes(':')) ||
      name === 'dashboard' ||
      name === 'live',
  ),
  'settings-users-workinghours-templates',
  'settings-users-workinghours-absences',
  'settings-users-workinghours-my',
]);

/**
 * docs/product/screens-and-routes.md back arrow: shown on detail pages (an item, a chat, a user, a new template…), leading to the
 * nearest parent page that exists. Null on top-level pages and settings sections.
 */
export function backTarget(name: RouteName | undefined, pathname: string): string | null {
  if (!name || TAB_ROUTES.has(name)) return null;
  const group = routes[name].group;
  if (group !== 'main' && group !== 'settings') return null;
  const segments = pathname.split('/').filter(Boolean);
  const minDepth = group === 'settings' ? 2 : 1;
  if (segments.length <= minDepth) return null;
  for (let depth = segments.length - 1; depth >= 1; depth--) {
    const candidate = `/${segments.slice(0, depth).join('/')}`;
    if (isKnownPath(candidate)) return candidate;
  }
  return '/';
}
