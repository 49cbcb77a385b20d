import { STANDARD_TARIFF_IDS } from '../constants';
import type { SpaceLike } from './types';

// Space features (docs/product/entities.md settings flags, docs/product/roles.md tariff rule) under one name each, so abilities and
// menu entries say which feature they need instead of reading raw settings.

export const SPACE_FEATURES = [
  'issues',
  'monitoring',
  'analytics',
  'youscan',
  'reports',
  'csi',
  'qa',
  'userWorkinghours',
  'labels',
  'templates',
  'macros',
  'bots',
  'ai',
  'random',
  'audit',
  'subscriptions',
  'specialTariff',
] as const;

export type SpaceFeature = (typeof SPACE_FEATURES)[number];

/** docs/product/limits.md: tariff ids 1, 2 and 10 are standard; any other is special. */
export function isSpecialTariff(tariffId: number): boolean {
  return !(STANDARD_TARIFF_IDS as readonly number[]).includes(tariffId);
}

const FEATURE_TESTS: Record<SpaceFeature, (space: SpaceLike) => boolean> = {
  issues: (s) => s.settings.issues,
  // Monitoring covers our own topics (monitoring_count > 0) and the YouScan integration (youscan/{id}).
  monitoring: (s) => s.settings.monitoring_count > 0 || s.settings.youscan,
  analytics: (s) => s.settings.analytics,
  youscan: (s) => s.settings.youscan,
  reports: (s) => s.settings.reports,
  csi: (s) => s.settings.csi_menu,
  qa: (s) => s.settings.qa,
  userWorkinghours: (s) => s.settings.user_workinghours,
  labels: (s) => s.settings.labels,
  templates: (s) => s.settings.templates,
  macros: (s) => s.settings.macros,
  bots: (s) => s.settings.bots,
  ai: (s) => s.settings.ai,
  random: (s) => s.settings.random,
  audit: (s) => s.settings.audit,
  subscriptions: (s) => s.settings.subscriptions,
  specialTariff: (s) => isSpecialTariff(s.tariff.id),
};

export function spaceHasFeature(space: SpaceLike, feature: SpaceFeature): boolean {
  return FEATURE_TESTS[feature](space);
}
