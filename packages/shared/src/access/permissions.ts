import { type SpaceFeature, spaceHasFeature } from './features';
import { effectiveRoles, type RoleFlag } from './roles';
import type { Actor, Membership, SpaceId, SpaceLike } from './types';

// Who may do what, in one table (docs/product/roles.md). The server's policies and the web's menus and buttons both
// ask these functions, so a button is never shown for an action the server refuses, or the reverse.
//
// Checks are per space (`canInSpace`): the roles of that membership and the features of that space.
// A check without a space is the union over the user's spaces (`can(actor, ability)`): docs/product/roles.md shows a
// menu when ANY space allows it. Expiry is not checked here — that is the access gate's job (gate.ts).

export const ABILITIES = [
  // Comments (SPEC: items)
  'items.view',
  'items.reply',
  'items.close',
  'items.closeWithoutReply',
  'items.delete',
  'items.tag',
  'items.assign',
  'items.takeOver',
  // Personal messages (SPEC: chats)
  'messages.view',
  'messages.reply',
  'messages.close',
  'messages.closeWithoutReply',
  'messages.tag',
  'messages.assign',
  'messages.takeOver',
  // Authors
  'authors.view',
  'authors.block',
  'authors.label',
  /** Filling in an author's custom fields (settings/custom/facts). */
  'authors.edit',
  // Sections
  'monitoring.view',
  'issues.view',
  'issues.edit',
  'stats.view',
  'stats.viewOwn',
  'stats.export',
  'analytics.view',
  'reports.view',
  'csi.view',
  'qa.review',
  'qa.viewOwn',
  // Tools used while working
  'templates.use',
  'macros.use',
  'ai.use',
  'schedule.viewOwn',
  // Settings (one per settings dropdown entry, docs/product/screens-and-routes.md)
  'accounts.manage',
  'users.manage',
  'schedule.manage',
  'billing.view',
  'tags.manage',
  'labels.manage',
  'templates.manage',
  'macros.manage',
  'rules.manage',
  'bots.manage',
  'ai.manage',
  'audit.view',
  'random.view',
  'errors.view',
  'subscriptions.manage',
  'email.manage',
  'workinghours.manage',
  'csi.manage',
  'qa.manage',
  'emotions.manage',
  'issues.manage',
  // Administrator-only, not tied to one entry
  'companies.manage',
  'settings.manage',
  /** Third-party OAuth2 clients of the space (/oauth). */
  'oauth.manage',
] as const;

export type Ability = (typeof ABILITIES)[number];

export interface AbilityRule {
  /**
   * Role flags that grant the ability: the member needs every flag of at least one group. An empty
   * list means administrators only; a group with no flags (`[[]]`) means any member of the space.
   * Administrators (`settings`) hold every flag, so they pass any rule whose features are on.
   */
  readonly roles: readonly (readonly RoleFlag[])[];
  /** Features the space must have, all of them. */
  readonly features: readonly SpaceFeature[];
}

const adminOnly = (...features: SpaceFeature[]): AbilityRule => ({ roles: [], features });
const rule = (roles: readonly (readonly RoleFlag[])[], ...features: SpaceFeature[]): AbilityRule => ({
  roles,
  features,
});

/** Acting on content: operators (reply) and moderators; the content flag says which content. */
const actsOn = (content: 'items' | 'messages') =>
  [
    [content, 'templates'],
    [content, 'moderate'],
  ] as const;

export const ABILITY_RULES: Readonly<Record<Ability, AbilityRule>> = {
  'items.view': rule([['items']]),
  'items.reply': rule([['items', 'templates']]),
  // Closing after a reply is part of an operator's work; closing without reply is moderation (docs/product/roles.md).
  'items.close': rule(actsOn('items')),
  'items.closeWithoutReply': rule([['items', 'moderate']]),
  'items.delete': rule([['items', 'moderate']]),
  'items.tag': rule(actsOn('items')),
  'items.assign': rule([['items', 'templates']]),
  // Taking over a reply a colleague is typing (docs/product/api.md lock) is an administrator's call.
  'items.takeOver': adminOnly(),

  'messages.view': rule([['messages']]),
  'messages.reply': rule([['messages', 'templates']]),
  'messages.close': rule(actsOn('messages')),
  'messages.closeWithoutReply': rule([['messages', 'moderate']]),
  'messages.tag': rule(actsOn('messages')),
  'messages.assign': rule([['messages', 'templates']]),
  'messages.takeOver': adminOnly(),

  'authors.view': rule([['items'], ['messages']]),
  'authors.block': rule([
    ['items', 'moderate'],
    ['messages', 'moderate'],
  ]),
  'authors.label': rule([...actsOn('items'), ...actsOn('messages')], 'labels'),
  'authors.edit': rule([...actsOn('items'), ...actsOn('messages')]),

  'monitoring.view': rule([['monitoring']], 'monitoring'),
  'issues.view': rule([['issues']], 'issues'),
  // Viewers of tasks (read-only, analyst with the grant) may look; people who act on content may work them.
  'issues.edit': rule(
    [
      ['issues', 'templates'],
      ['issues', 'moderate'],
    ],
    'issues',
  ),
  'stats.view': rule([['stats']]),
  // Personal statistics tabs (stats/my, my/statuses) for everyone who acts on content.
  'stats.viewOwn': rule([['stats'], ['templates'], ['moderate']]),
  // The space-independent half of the export rule lives in menu.ts (isExportAvailable).
  'stats.export': rule([['stats']]),
  'analytics.view': rule([['analytics']], 'analytics'),
  'reports.view': rule([['reports']], 'reports'),
  'csi.view': rule([['csi']], 'csi'),
  'qa.review': rule([['qa']], 'qa'),
  // Operators see the reviews of their own replies (qa/my).
  'qa.viewOwn': rule([['qa'], ['templates']], 'qa'),

  'templates.use': rule([['templates']], 'templates'),
  // Moderators run macros too: their moderation actions apply, a reply is skipped (issue 16).
  'macros.use': rule([['templates'], ['moderate']], 'macros'),
  'ai.use': rule([['templates']], 'ai'),
  'schedule.viewOwn': rule([[]], 'userWorkinghours'),

  'accounts.manage': adminOnly(),
  'users.manage': adminOnly(),
  'schedule.manage': adminOnly('userWorkinghours'),
  'billing.view': adminOnly(),
  'tags.manage': adminOnly(),
  'labels.manage': adminOnly('labels'),
  // docs/product/roles.md: the operator's settings menu shows the entries of their own role flag, such as templates.
  'templates.manage': rule([['templates']], 'templates'),
  'macros.manage': adminOnly('macros'),
  'rules.manage': adminOnly('specialTariff'),
  'bots.manage': adminOnly('bots'),
  'ai.manage': adminOnly('ai'),
  'audit.view': adminOnly('audit'),
  'random.view': adminOnly('random'),
  'errors.view': adminOnly(),
  'subscriptions.manage': adminOnly('subscriptions'),
  'email.manage': adminOnly(),
  'workinghours.manage': adminOnly(),
  'csi.manage': adminOnly('csi', 'specialTariff'),
  // The quality-check permission is the entry's own role flag.
  'qa.manage': rule([['qa']], 'qa', 'specialTariff'),
  'emotions.manage': adminOnly('specialTariff'),
  'issues.manage': adminOnly('issues'),

  'companies.manage': adminOnly(),
  'settings.manage': adminOnly(),
  'oauth.manage': adminOnly(),
};

export function isAbility(value: string): value is Ability {
  return value in ABILITY_RULES;
}

/** Does this membership allow the ability in its space? */
export function canInSpace(membership: Membership, ability: Ability): boolean {
  const { roles, features } = ABILITY_RULES[ability];
  if (!features.every((feature) => spaceHasFeature(membership.space, feature))) return false;
  const flags = effectiveRoles(membership.roles);
  if (flags.settings) return true;
  return roles.some((group) => group.every((flag) => flags[flag]));
}

function spaceIdOf(space: SpaceLike | SpaceId): SpaceId {
  return typeof space === 'object' ? space.id : space;
}

/** The actor's membership in a space, if any. */
export function membershipIn(actor: Actor, space: SpaceLike | SpaceId): Membership | undefined {
  const id = spaceIdOf(space);
  return actor.memberships.find((m) => m.space.id === id);
}

/**
 * With a space: may the actor do this there (false when they are not a member).
 * Without: may they do it in at least one of their spaces (menus, docs/product/roles.md).
 */
export function can(actor: Actor, ability: Ability, space?: SpaceLike | SpaceId): boolean {
  if (space !== undefined) {
    const membership = membershipIn(actor, space);
    return membership !== undefined && canInSpace(membership, ability);
  }
  return actor.memberships.some((m) => canInSpace(m, ability));
}

/** The spaces where the actor may do this — for list scopes and space pickers. */
export function spacesWhere(actor: Actor, ability: Ability): SpaceLike[] {
  return actor.memberships.filter((m) => canInSpace(m, ability)).map((m) => m.space);
}

/** Administrator of at least one space. */
export function isAdminAnywhere(actor: Actor): boolean {
  return actor.memberships.some((m) => m.roles.settings);
}

/** Every ability the membership allows, in ABILITIES order (for the API to send to the web). */
export function abilitiesInSpace(membership: Membership): Ability[] {
  return ABILITIES.filter((ability) => canInSpace(membership, ability));
}
