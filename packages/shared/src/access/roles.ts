import { z } from 'zod';

// Role flags of one space membership and the five named presets of docs/product/roles.md. Presets are data: a
// table-driven test runs each of them against every ability, menu entry and settings entry.

/**
 * Every role flag, in display order. The first group defines the named role (docs/product/roles.md, "Role flags
 * on the user"); the second holds per-feature grants layered on top of it.
 */
export const ROLE_FLAGS = [
  // What the person may do to content.
  'settings', // administrator: implies every other flag (see effectiveRoles)
  'templates', // operator: replies on behalf of connected accounts, uses reply templates
  'messages', // sees personal messages
  'items', // sees comments
  'moderate', // tags, closes without reply, deletes comments, blocks authors
  'stats', // analyst: statistics of the whole team
  // Per-feature grants; the feature must also be enabled in the space (see SPACE_FEATURES).
  'qa', // quality-check permission: reviews other people's replies
  'issues', // tasks
  'monitoring', // mention monitoring
  'analytics',
  'reports',
  'csi',
] as const;

export type RoleFlag = (typeof ROLE_FLAGS)[number];

const flag = z.boolean().default(false);

/** A missing flag means "not granted". Unknown keys are dropped. */
export const roleFlagsSchema = z.object({
  settings: flag,
  templates: flag,
  messages: flag,
  items: flag,
  moderate: flag,
  stats: flag,
  qa: flag,
  issues: flag,
  monitoring: flag,
  analytics: flag,
  reports: flag,
  csi: flag,
});

export type RoleFlags = z.infer<typeof roleFlagsSchema>;
export type RoleFlagsInput = z.input<typeof roleFlagsSchema>;

/** Parse role flags from untrusted input (API body, stored JSON); missing flags become false. */
export function parseRoleFlags(input: unknown): RoleFlags {
  return roleFlagsSchema.parse(input);
}

export const ROLE_PRESET_NAMES = ['read-only', 'analyst', 'moderator', 'operator', 'administrator'] as const;
export type RolePresetName = (typeof ROLE_PRESET_NAMES)[number];
export type RoleName = RolePresetName | 'custom';

const none: RoleFlags = {
  settings: false,
  templates: false,
  messages: false,
  items: false,
  moderate: false,
  stats: false,
  qa: false,
  issues: false,
  monitoring: false,
  analytics: false,
  reports: false,
  csi: false,
};

/**
 * docs/product/roles.md named roles. Where the spec lists only what a role can do to content, the per-feature grants
 * follow the same idea:
 * - read-only: views content — comments, personal messages and monitored mentions — nothing else;
 * - analyst: content plus statistics and the statistics-like sections (analytics, reports, CSI);
 * - moderator: content plus `moderate` (tag, close without reply, delete comments, block authors);
 * - operator: content plus `templates` (reply, and with it tag, close after replying, assign — as an
 *   agent in Chatwoot or Zendesk) and tasks; no deleting, blocking or closing without reply;
 * - administrator: everything, including accounts, companies, users, settings and quality checks.
 */
export const ROLE_PRESETS: Readonly<Record<RolePresetName, Readonly<RoleFlags>>> = {
  'read-only': { ...none, items: true, messages: true, monitoring: true },
  analyst: {
    ...none,
    items: true,
    messages: true,
    monitoring: true,
    stats: true,
    analytics: true,
    reports: true,
    csi: true,
  },
  moderator: { ...none, items: true, messages: true, monitoring: true, moderate: true },
  operator: { ...none, items: true, messages: true, monitoring: true, templates: true, issues: true },
  administrator: {
    settings: true,
    templates: true,
    messages: true,
    items: true,
    moderate: true,
    stats: true,
    qa: true,
    issues: true,
    monitoring: true,
    analytics: true,
    reports: true,
    csi: true,
  },
};

/** A fresh copy of a preset's flags (safe to mutate). */
export function presetFor(name: RolePresetName): RoleFlags {
  return { ...ROLE_PRESETS[name] };
}

export function isRolePresetName(value: string): value is RolePresetName {
  return (ROLE_PRESET_NAMES as readonly string[]).includes(value);
}

/** Flags as they act: an administrator (`settings`) holds every flag. */
export function effectiveRoles(flags: RoleFlags): RoleFlags {
  return flags.settings ? { ...ROLE_PRESETS.administrator } : flags;
}

/**
 * The named role that best describes the flags, or 'custom'.
 *
 * The name is decided by the content flags only — `settings`, `templates`, `moderate`, `stats` and
 * access to some content (`items` or `messages`); per-feature grants (qa, issues, monitoring,
 * analytics, reports, csi) do not change it, so an operator who also may review quality is still an
 * operator. Combinations the spec does not name (an operator who also moderates, a user who sees no
 * content) are 'custom'. Use `matchesPreset` to test for an exact preset.
 */
export function roleNameOf(flags: RoleFlags): RoleName {
  if (flags.settings) return 'administrator';
  if (!flags.items && !flags.messages) return 'custom';
  const { templates, moderate, stats } = flags;
  if (!templates && !moderate && !stats) return 'read-only';
  if (!templates && !moderate && stats) return 'analyst';
  if (!templates && moderate && !stats) return 'moderator';
  if (templates && !moderate && !stats) return 'operator';
  return 'custom';
}

/** True when the flags equal the preset exactly, per-feature grants included. */
export function matchesPreset(flags: RoleFlags, name: RolePresetName): boolean {
  const preset = ROLE_PRESETS[name];
  return ROLE_FLAGS.every((key) => flags[key] === preset[key]);
}
