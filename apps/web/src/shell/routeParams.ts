import { type RouteName, routeNames, routes } from '@otklik/shared/routes';
import { useParams } from 'react-router';

// Ids in routes are the database's positive int4 keys. A malformed one (/items/abc, /items/1.5,
// /items/99999999999) is decided here, before any query, so no screen waits on a request never sent.

const MAX_ID = 2_147_483_647;

/** A route's `:id` as a positive integer, or null when it cannot name a record. */
export function parseRouteId(raw: string | undefined): number | null {
  if (raw === undefined || !/^[1-9][0-9]{0,9}$/.test(raw)) return null;
  const id = Number(raw);
  return id <= MAX_ID ? id : null;
}

/** The current route's `:id`, parsed; null when malformed (the router's IdGuard has then shown not-found). */
export function useRouteId(): number | null {
  return parseRouteId(useParams().id);
}

/** Routes whose `:id` names a record (signed-in screens); public routes' ids are tokens and hashes. */
export function hasRecordId(name: RouteName): boolean {
  const route = routes[name];
  return (route.group === 'main' || route.group === 'settings') && route.path.includes('/:id');
}

const staticPaths = new Set<string>(
  routeNames.map((name) => routes[name].path).filter((path) => !path.includes(':')),
);

/**
 * Where "back" leads from a record that is not there: the nearest list above the id in the address
 * (/settings/accounts/abc/exclude → /settings/accounts), or home.
 */
export function listPathAbove(pathname: string, rawId: string | undefined): string {
  const segments = pathname.split('/').filter(Boolean);
  const at = rawId === undefined ? segments.length : segments.indexOf(encodeURIComponent(rawId));
  for (let depth = at < 0 ? segments.length - 1 : at; depth >= 1; depth--) {
    const candidate = `/${segments.slice(0, depth).join('/')}`;
    if (staticPaths.has(candidate)) return candidate;
  }
  return '/';
}
