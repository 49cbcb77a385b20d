import { accessLabel, type Locale, ROLE_PRESET_NAMES } from '@otklik/shared';
import type { RoleName } from '../../../api/types';

/** The five named roles of docs/product/roles.md for a select. */
export function roleOptions(locale: Locale) {
  return ROLE_PRESET_NAMES.map((name) => ({ value: name, label: accessLabel(`role.${name}`, locale) }));
}

export function roleLabel(role: RoleName, locale: Locale): string {
  return accessLabel(`role.${role}`, locale);
}

export const ROLE_COLORS: Record<RoleName, string> = {
  administrator: 'indigo',
  operator: 'teal',
  moderator: 'orange',
  analyst: 'grape',
  'read-only': 'gray',
  custom: 'pink',
};
