import type { RouteName } from '@otklik/shared/routes';

/** `handle` of every named route in the router. */
export interface RouteHandle {
  name: RouteName;
}

export function isRouteHandle(handle: unknown): handle is RouteHandle {
  return typeof handle === 'object' && handle !== null && 'name' in handle;
}
