import { describe, expect, it } from 'vitest';
import { isSpecialTariff, SPACE_FEATURES, type SpaceFeature } from './features';
import {
  ABILITIES,
  ABILITY_RULES,
  type Ability,
  abilitiesInSpace,
  can,
  canInSpace,
  isAbility,
  isAdminAnywhere,
  membershipIn,
  spacesWhere,
} from './permissions';
import { parseRoleFlags, ROLE_PRESET_NAMES, type RolePresetName } from './roles';
import {
  actorWithRole,
  buildActor,
  buildMembership,
  buildSpace,
  NO_FEATURES,
  type SpaceOverrides,
  STANDARD_TARIFF,
} from './test-factories';

const ALL: readonly RolePresetName[] = ROLE_PRESET_NAMES;
const ADMIN: readonly RolePresetName[] = ['administrator'];
const ACTS: readonly RolePresetName[] = ['moderator', 'operator', 'administrator'];
const MODERATES: readonly RolePresetName[] = ['moderator', 'administrator'];
const REPLIES: readonly RolePresetName[] = ['operator', 'administrator'];
const ANALYSES: readonly RolePresetName[] = ['analyst', 'administrator'];

/**
 * Every ability × every named role, in a space with every feature on and a special tariff.
 * A change here is a permission change: review it as one.
 */
const EXPECTED: Record<Ability, readonly RolePresetName[]> = {
  'items.view': ALL,
  'items.reply': REPLIES,
  'items.close': ACTS,
  'items.closeWithoutReply': MODERATES,
  'items.delete': MODERATES,
  'items.tag': ACTS,
  'items.assign': REPLIES,
  'items.takeOver': ADMIN,
  'messages.view': ALL,
  'messages.reply': REPLIES,
  'messages.close': ACTS,
  'messages.closeWithoutReply': MODERATES,
  'messages.tag': ACTS,
  'messages.assign': REPLIES,
  'messages.takeOver': ADMIN,
  'authors.view': ALL,
  'authors.block': MODERATES,
  'authors.label': ACTS,
  'authors.edit': ACTS,
  'monitoring.view': ALL,
  'issues.view': REPLIES,
  'issues.edit': REPLIES,
  'stats.view': ANALYSES,
  'stats.viewOwn': ['analyst', 'moderator', 'operator', 'administrator'],
  'stats.export': ANALYSES,
  'analytics.view': ANALYSES,
  'reports.view': ANALYSES,
  'csi.view': ANALYSES,
  'qa.review': ADMIN,
  'qa.viewOwn': REPLIES,
  'templates.use': REPLIES,
  'macros.use': ACTS,
  'ai.use': REPLIES,
  'schedule.viewOwn': ALL,
  'accounts.manage': ADMIN,
  'users.manage': ADMIN,
  'schedule.manage': ADMIN,
  'billing.view': ADMIN,
  'tags.manage': ADMIN,
  'labels.manage': ADMIN,
  'templates.manage': REPLIES,
  'macros.manage': ADMIN,
  'rules.manage': ADMIN,
  'bots.manage': ADMIN,
  'ai.manage': ADMIN,
  'audit.view': ADMIN,
  'random.view': ADMIN,
  'errors.view': ADMIN,
  'subscriptions.manage': ADMIN,
  'email.manage': ADMIN,
  'workinghours.manage': ADMIN,
  'csi.manage': ADMIN,
  'qa.manage': ADMIN,
  'emotions.manage': ADMIN,
  'issues.manage': ADMIN,
  'companies.manage': ADMIN,
  'settings.manage': ADMIN,
  'oauth.manage': ADMIN,
};

const cases = ABILITIES.flatMap((ability) =>
  ROLE_PRESET_NAMES.map((role) => [ability, role, EXPECTED[ability].includes(role)] as const),
);

describe('named roles × abilities (every feature on, special tariff)', () => {
  it.each(cases)('%s for %s → %s', (ability, role, expected) => {
    const membership = buildMembership(role);
    expect(canInSpace(membership, ability)).toBe(expected);
    expect(can(buildActor([membership]), ability)).toBe(expected);
    expect(can(buildActor([membership]), ability, membership.space)).toBe(expected);
  });
});

/** The space overrides that turn one feature off. */
const FEATURE_OFF: Record<SpaceFeature, SpaceOverrides> = {
  issues: { settings: { issues: false } },
  monitoring: { settings: { monitoring_count: 0, youscan: false } },
  analytics: { settings: { analytics: false } },
  youscan: { settings: { youscan: false } },
  reports: { settings: { reports: false } },
  csi: { settings: { csi_menu: false } },
  qa: { settings: { qa: false } },
  userWorkinghours: { settings: { user_workinghours: false } },
  labels: { settings: { labels: false } },
  templates: { settings: { templates: false } },
  macros: { settings: { macros: false } },
  bots: { settings: { bots: false } },
  ai: { settings: { ai: false } },
  random: { settings: { random: false } },
  audit: { settings: { audit: false } },
  subscriptions: { settings: { subscriptions: false } },
  specialTariff: { tariff: STANDARD_TARIFF },
};

const featureCases = ABILITIES.flatMap((ability) =>
  ABILITY_RULES[ability].features.map((feature) => [ability, feature] as const),
);

describe('space features', () => {
  it.each(featureCases)('%s is closed even to an administrator without %s', (ability, feature) => {
    expect(canInSpace(buildMembership('administrator', buildSpace(FEATURE_OFF[feature])), ability)).toBe(
      false,
    );
  });

  it('every feature is used by some ability, except youscan (folded into monitoring)', () => {
    const used = new Set(ABILITIES.flatMap((ability) => ABILITY_RULES[ability].features));
    expect(SPACE_FEATURES.filter((feature) => !used.has(feature))).toEqual(['youscan']);
  });

  it('abilities without features stay open to an administrator in a bare standard space', () => {
    const bare = buildMembership(
      'administrator',
      buildSpace({ settings: NO_FEATURES, tariff: STANDARD_TARIFF }),
    );
    const open = ABILITIES.filter((ability) => ABILITY_RULES[ability].features.length === 0);
    expect(abilitiesInSpace(bare)).toEqual(open);
  });

  it.each([
    ['monitoring topics only', { monitoring_count: 1, youscan: false }, true],
    ['youscan only', { monitoring_count: 0, youscan: true }, true],
    ['neither', { monitoring_count: 0, youscan: false }, false],
  ])('monitoring with %s → %s', (_, settings, expected) => {
    expect(canInSpace(buildMembership('read-only', buildSpace({ settings })), 'monitoring.view')).toBe(
      expected,
    );
  });

  it.each([
    [1, false],
    [2, false],
    [10, false],
    [3, true],
    [11, true],
  ])('tariff %i is special → %s', (id, expected) => {
    expect(isSpecialTariff(id)).toBe(expected);
  });
});

describe('custom flags', () => {
  it('the quality-check permission alone opens review and its settings', () => {
    const membership = buildMembership(parseRoleFlags({ items: true, qa: true }));
    expect(canInSpace(membership, 'qa.review')).toBe(true);
    expect(canInSpace(membership, 'qa.manage')).toBe(true);
    expect(canInSpace(membership, 'items.reply')).toBe(false);
  });

  it('settings alone acts as a full administrator', () => {
    const membership = buildMembership(parseRoleFlags({ settings: true }));
    expect(abilitiesInSpace(membership)).toEqual([...ABILITIES]);
  });

  it('templates without content access cannot reply', () => {
    const membership = buildMembership(parseRoleFlags({ templates: true }));
    expect(canInSpace(membership, 'items.reply')).toBe(false);
    expect(canInSpace(membership, 'messages.reply')).toBe(false);
    expect(canInSpace(membership, 'templates.manage')).toBe(true);
  });

  it('comments only: no personal messages', () => {
    const membership = buildMembership(parseRoleFlags({ items: true, templates: true }));
    expect(canInSpace(membership, 'items.reply')).toBe(true);
    expect(canInSpace(membership, 'messages.view')).toBe(false);
  });
});

describe('several spaces', () => {
  const tasksOff = buildSpace({ settings: { issues: false } });
  const tasksOn = buildSpace();
  const actor = buildActor([buildMembership('operator', tasksOff), buildMembership('read-only', tasksOn)]);

  it('a check with a space uses that membership only', () => {
    expect(can(actor, 'items.reply', tasksOff)).toBe(true);
    expect(can(actor, 'items.reply', tasksOn.id)).toBe(false);
    expect(can(actor, 'items.reply', 'not-a-member')).toBe(false);
  });

  it('a check without a space is the union over spaces', () => {
    expect(can(actor, 'items.reply')).toBe(true);
    expect(spacesWhere(actor, 'items.reply')).toEqual([tasksOff]);
    expect(spacesWhere(actor, 'items.view')).toEqual([tasksOff, tasksOn]);
  });

  it('role and feature must meet in the same space', () => {
    // Operator where tasks are off, read-only where they are on: tasks stay hidden.
    expect(can(actor, 'issues.view')).toBe(false);
  });

  it('a special tariff counts only where the user is an administrator', () => {
    const other = buildActor([
      buildMembership('administrator', buildSpace({ tariff: STANDARD_TARIFF })),
      buildMembership('operator', buildSpace()),
    ]);
    expect(can(other, 'rules.manage')).toBe(false);
    expect(can(other, 'accounts.manage')).toBe(true);
  });

  it('membershipIn and isAdminAnywhere', () => {
    expect(membershipIn(actor, tasksOn)?.roles.items).toBe(true);
    expect(membershipIn(actor, 'nope')).toBeUndefined();
    expect(isAdminAnywhere(actor)).toBe(false);
    expect(isAdminAnywhere(actorWithRole('administrator'))).toBe(true);
  });

  it('no spaces: nothing is allowed', () => {
    const nobody = buildActor([]);
    expect(ABILITIES.filter((ability) => can(nobody, ability))).toEqual([]);
  });
});

describe('isAbility', () => {
  it('knows the table', () => {
    expect(isAbility('items.reply')).toBe(true);
    expect(isAbility('items.fly')).toBe(false);
  });
});
