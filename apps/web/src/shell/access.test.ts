import { spaceSettingsSchema, visibleMenu, visibleSettingsEntries } from '@otklik/shared';
import { describe, expect, it } from 'vitest';
import type { AppConfig, ConfigSpace } from '../api/types';
import { actorFromConfig, gateFor, menuContextOf } from './access';

const NOW = 1_800_000_000;
const DAY = 86_400;

const space = (roles: Record<string, boolean>, patch: Partial<ConfigSpace> = {}): ConfigSpace => ({
  id: 1,
  name: 'Acme',
  expires_at: NOW + 10 * DAY,
  is_trial: false,
  tariff: { id: 2, name: 'Business' },
  settings: spaceSettingsSchema.parse({
    issues: true,
    analytics: true,
    templates: true,
    monitoring_count: 1,
  }),
  timezone: 'Europe/Moscow',
  roles,
  status: 1,
  status_changed_at: null,
  status_manual_at: null,
  ...patch,
});

const config = (spaces: ConfigSpace[], otp_required = false) =>
  ({
    user: {
      id: 1,
      name: 'U',
      email: 'u@x.test',
      email_status: 1,
      status: 1,
      locale: 'ru',
      roles: {},
      settings: {},
      is_partner: false,
      otp_enabled: false,
      has_password: true,
    },
    spaces,
    user_statuses: [],
    filters: [],
    emoji: {},
    issues_count: 0,
    issues_expired_count: 0,
    monitoring_count: 0,
    items_count: 0,
    otp_required,
  }) as AppConfig;

const operator = { items: true, messages: true, monitoring: true, templates: true, issues: true };

describe('permission rules fed from GET /v1/config', () => {
  it('an operator gets the content sections and their own settings entry, an admin everything enabled', () => {
    const op = actorFromConfig(config([space(operator)]));
    expect(visibleMenu(menuContextOf(op, { items: [], companies: [] })).map((e) => e.key)).toEqual([
      'stats',
      'chats',
      'items',
      'monitoring',
      'issues',
    ]);
    expect(visibleSettingsEntries({ actor: op }).map((e) => e.key)).toEqual(['templates']);

    const admin = actorFromConfig(config([space({ settings: true })]));
    expect(visibleMenu(menuContextOf(admin, undefined)).map((e) => e.key)).toContain('analytics');
  });

  it('with companies, personal messages and comments need a visible account', () => {
    const op = actorFromConfig(config([space(operator)]));
    const companies = [
      {
        id: 1,
        name: 'C',
        space_id: 1,
        settings: { items_assigned_to: null, status_open: false, tags_mode: 'space' as const },
      },
    ];
    const keys = visibleMenu(menuContextOf(op, { items: [], companies })).map((e) => e.key);
    expect(keys).not.toContain('items');
    expect(keys).not.toContain('chats');
  });

  it('the access gate: expired spaces send an admin to billing and show a member paid-over', () => {
    const expired = { expires_at: NOW - DAY, is_trial: true };
    const adminConfig = config([space({ settings: true }, expired)]);
    expect(gateFor(adminConfig, actorFromConfig(adminConfig), 'items', NOW)).toEqual({
      kind: 'redirect',
      to: 'settings-billing',
    });
    const memberConfig = config([space(operator, expired)]);
    expect(gateFor(memberConfig, actorFromConfig(memberConfig), 'items', NOW)).toMatchObject({
      kind: 'paid-over',
      trial: true,
    });
    const otpConfig = config([space(operator)], true);
    expect(gateFor(otpConfig, actorFromConfig(otpConfig), 'settings-users', NOW)).toEqual({
      kind: 'redirect',
      to: 'settings-profile',
    });
    expect(gateFor(otpConfig, actorFromConfig(otpConfig), 'settings-profile', NOW)).toEqual({ kind: 'ok' });
  });
});
