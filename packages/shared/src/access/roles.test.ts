import { describe, expect, it } from 'vitest';
import {
  effectiveRoles,
  isRolePresetName,
  matchesPreset,
  parseRoleFlags,
  presetFor,
  ROLE_FLAGS,
  ROLE_PRESET_NAMES,
  ROLE_PRESETS,
  type RoleFlags,
  type RoleName,
  roleFlagsSchema,
  roleNameOf,
} from './roles';

const flags = (...granted: (keyof RoleFlags)[]): RoleFlags => ({
  ...parseRoleFlags({}),
  ...Object.fromEntries(granted.map((flag) => [flag, true])),
});

describe('role presets', () => {
  it.each(ROLE_PRESET_NAMES)('%s is valid role flags and names itself', (name) => {
    expect(roleFlagsSchema.parse(ROLE_PRESETS[name])).toEqual(ROLE_PRESETS[name]);
    expect(roleNameOf(presetFor(name))).toBe(name);
    expect(matchesPreset(presetFor(name), name)).toBe(true);
  });

  it('every preset holds every flag, and only an administrator holds settings', () => {
    for (const name of ROLE_PRESET_NAMES) {
      expect(Object.keys(ROLE_PRESETS[name]).sort()).toEqual([...ROLE_FLAGS].sort());
      expect(ROLE_PRESETS[name].settings).toBe(name === 'administrator');
    }
  });

  it('the schema lists exactly ROLE_FLAGS', () => {
    expect(Object.keys(roleFlagsSchema.shape).sort()).toEqual([...ROLE_FLAGS].sort());
  });

  // docs/product/roles.md in one table: what each role may do to content.
  it.each([
    [
      'read-only',
      { items: true, messages: true, templates: false, moderate: false, stats: false, settings: false },
    ],
    [
      'analyst',
      { items: true, messages: true, templates: false, moderate: false, stats: true, settings: false },
    ],
    [
      'moderator',
      { items: true, messages: true, templates: false, moderate: true, stats: false, settings: false },
    ],
    [
      'operator',
      { items: true, messages: true, templates: true, moderate: false, stats: false, settings: false },
    ],
    [
      'administrator',
      { items: true, messages: true, templates: true, moderate: true, stats: true, settings: true },
    ],
  ] as const)('%s content flags', (name, expected) => {
    expect(presetFor(name)).toMatchObject(expected);
  });

  it('presetFor returns a copy', () => {
    const operator = presetFor('operator');
    operator.settings = true;
    expect(ROLE_PRESETS.operator.settings).toBe(false);
    expect(presetFor('operator').settings).toBe(false);
  });

  it('isRolePresetName', () => {
    expect(isRolePresetName('operator')).toBe(true);
    expect(isRolePresetName('custom')).toBe(false);
    expect(isRolePresetName('admin')).toBe(false);
  });
});

describe('parseRoleFlags', () => {
  it('fills missing flags with false and drops unknown keys', () => {
    expect(parseRoleFlags({ items: true, unknown: true })).toEqual(flags('items'));
  });

  it('rejects non-boolean flags', () => {
    expect(() => parseRoleFlags({ items: 1 })).toThrow();
  });
});

describe('roleNameOf', () => {
  it.each<[string, RoleFlags, RoleName]>([
    ['settings alone is an administrator', flags('settings'), 'administrator'],
    ['operator with a quality-check grant', { ...presetFor('operator'), qa: true }, 'operator'],
    ['operator without tasks', { ...presetFor('operator'), issues: false }, 'operator'],
    ['analyst without analytics', { ...presetFor('analyst'), analytics: false }, 'analyst'],
    ['read-only on comments only', flags('items'), 'read-only'],
    ['moderator on messages only', flags('messages', 'moderate'), 'moderator'],
    ['operator who also moderates', flags('items', 'templates', 'moderate'), 'custom'],
    ['operator who also sees statistics', flags('items', 'templates', 'stats'), 'custom'],
    ['no content at all', flags('stats'), 'custom'],
    ['nothing', flags(), 'custom'],
  ])('%s', (_, input, expected) => {
    expect(roleNameOf(input)).toBe(expected);
  });

  it('matchesPreset is exact', () => {
    expect(matchesPreset({ ...presetFor('operator'), qa: true }, 'operator')).toBe(false);
    expect(matchesPreset(presetFor('analyst'), 'operator')).toBe(false);
  });
});

describe('effectiveRoles', () => {
  it('an administrator holds every flag', () => {
    expect(effectiveRoles(flags('settings'))).toEqual(ROLE_PRESETS.administrator);
  });

  it('leaves other flags as they are', () => {
    expect(effectiveRoles(flags('items', 'qa'))).toEqual(flags('items', 'qa'));
  });
});
