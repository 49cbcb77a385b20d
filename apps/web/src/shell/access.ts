import {
  type AccessGateResult,
  type AccessRouteName,
  type Actor,
  accessGate,
  isAdminAnywhere,
  type MenuContext,
  parseActor,
} from '@otklik/shared';
import { routes } from '@otklik/shared/routes';
import type { AccountObject, AppConfig, Company } from '../api/types';

// The permission rules of packages/shared fed from GET /v1/config (docs/product/roles.md).

/** The actor of the shared rules: the user and each space with their roles there. */
export function actorFromConfig(config: Pick<AppConfig, 'user' | 'spaces'>): Actor {
  return parseActor({
    user: { is_partner: config.user.is_partner },
    memberships: config.spaces.map((space) => ({ space, roles: space.roles })),
  });
}

export function menuContextOf(
  actor: Actor,
  objects: { items?: readonly AccountObject[]; companies?: readonly Company[] } | undefined,
): MenuContext {
  return {
    actor,
    hasCompanies: (objects?.companies?.length ?? 0) > 0,
    objects: objects?.items ?? [],
  };
}

/** docs/product/states.md access gate for a route of the signed-in area. */
export function gateFor(
  config: AppConfig,
  actor: Actor,
  routeName: string,
  nowSeconds: number,
): AccessGateResult {
  return accessGate({
    spaces: config.spaces,
    isAdmin: isAdminAnywhere(actor),
    otpRequired: config.otp_required,
    routeName,
    nowSeconds,
  });
}

/** The address of a route the access rules name (menus, the gate); those routes have no parameters. */
export function accessPath(name: AccessRouteName): string {
  return routes[name].path;
}
