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
 * SPEC §2 filter button: the number of applied filters — distinct query parameters of the current route
 * that are filters (`status=new&status=open` is one filter). A screen may name its filter keys.
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
 * SPEC §2 back arrow: shown on detail pages (an item, a chat, a user, a new template…), leading to the
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
