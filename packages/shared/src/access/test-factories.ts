import { presetFor, type RoleFlags, type RolePresetName } from './roles';
import type { Actor, Membership, SpaceLike, SpaceSettings } from './types';

// Builders for tests of the access rules (and of code that uses them). Not part of the public API.

/** A fixed "now" for tests: 2023-11-14T22:13:20Z. */
export const TEST_NOW = 1_700_000_000;

/** Every feature on. */
export const ALL_FEATURES: SpaceSettings = {
  issues: true,
  monitoring_count: 5,
  analytics: true,
  youscan: true,
  reports: true,
  csi_menu: true,
  qa: true,
  user_workinghours: true,
  otp_required: false,
  labels: true,
  templates: true,
  macros: true,
  bots: true,
  ai: true,
  random: true,
  audit: true,
  subscriptions: true,
};

/** Every feature off. */
export const NO_FEATURES: SpaceSettings = {
  issues: false,
  monitoring_count: 0,
  analytics: false,
  youscan: false,
  reports: false,
  csi_menu: false,
  qa: false,
  user_workinghours: false,
  otp_required: false,
  labels: false,
  templates: false,
  macros: false,
  bots: false,
  ai: false,
  random: false,
  audit: false,
  subscriptions: false,
};

/** A special tariff (id not in 1, 2, 10). */
export const SPECIAL_TARIFF = { id: 5, name: 'Enterprise' } as const;
export const STANDARD_TARIFF = { id: 2, name: 'Standard' } as const;

let nextSpaceId = 1;

export type SpaceOverrides = Partial<Omit<SpaceLike, 'settings'>> & { settings?: Partial<SpaceSettings> };

/** A paid space, 30 days from TEST_NOW, special tariff, every feature on — unless overridden. */
export function buildSpace(overrides: SpaceOverrides = {}): SpaceLike {
  const { settings, ...rest } = overrides;
  return {
    id: nextSpaceId++,
    expires_at: TEST_NOW + 30 * 86_400,
    is_trial: false,
    tariff: { ...SPECIAL_TARIFF },
    ...rest,
    settings: { ...ALL_FEATURES, ...settings },
  };
}

export function buildMembership(
  roles: RolePresetName | RoleFlags,
  space: SpaceLike = buildSpace(),
): Membership {
  return { space, roles: typeof roles === 'string' ? presetFor(roles) : roles };
}

export function buildActor(memberships: Membership[], isPartner = false): Actor {
  return { user: { is_partner: isPartner }, memberships };
}

/** An actor with one role in one space (a fresh full-featured space by default). */
export function actorWithRole(
  roles: RolePresetName | RoleFlags,
  space?: SpaceLike,
  isPartner = false,
): Actor {
  return buildActor([buildMembership(roles, space)], isPartner);
}
