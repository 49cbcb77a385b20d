import type { MenuKey, SettingsEntryKey, UserMenuKey } from '@otklik/shared';
import {
  type Icon,
  IconAdjustments,
  IconAlertTriangle,
  IconArrowsShuffle,
  IconBell,
  IconBolt,
  IconBookmark,
  IconCalendarTime,
  IconChartBar,
  IconChartDots,
  IconChecklist,
  IconClipboardCheck,
  IconClock,
  IconCreditCard,
  IconGift,
  IconHelp,
  IconHistory,
  IconKey,
  IconLogout,
  IconMail,
  IconMessageCircle,
  IconMessages,
  IconMoodHappy,
  IconMoodSmile,
  IconPlugConnected,
  IconRadar,
  IconReport,
  IconRobot,
  IconRoute,
  IconRss,
  IconSend,
  IconSettings,
  IconSparkles,
  IconTags,
  IconTemplate,
  IconUser,
  IconUsers,
} from '@tabler/icons-react';
import type { Counts } from '../api/types';

// Icons and count badges of the menus. Which entries show is decided by packages/shared (visibleMenu,
// visibleSettingsEntries, visibleUserMenu — docs/product/screens-and-routes.md, roles.md); this file only dresses them.

export const MENU_ICONS: Record<MenuKey, Icon> = {
  stats: IconChartBar,
  chats: IconMessages,
  items: IconMessageCircle,
  analytics: IconChartDots,
  monitoring: IconRadar,
  issues: IconChecklist,
  reports: IconReport,
  csi: IconMoodSmile,
  qa: IconClipboardCheck,
};

export const SETTINGS_ICONS: Record<SettingsEntryKey, Icon> = {
  accounts: IconPlugConnected,
  users: IconUsers,
  schedule: IconCalendarTime,
  billing: IconCreditCard,
  tags: IconTags,
  labels: IconBookmark,
  templates: IconTemplate,
  macros: IconBolt,
  rules: IconRoute,
  bots: IconRobot,
  ai: IconSparkles,
  audit: IconHistory,
  random: IconArrowsShuffle,
  errors: IconAlertTriangle,
  subscriptions: IconRss,
  email: IconMail,
  workinghours: IconClock,
  csi: IconMoodSmile,
  qa: IconClipboardCheck,
  emotions: IconMoodHappy,
  issues: IconChecklist,
  api: IconKey,
  webhooks: IconSend,
};

export const USER_MENU_ICONS: Record<UserMenuKey, Icon> = {
  notifications: IconBell,
  profile: IconUser,
  config: IconAdjustments,
  referral: IconGift,
  help: IconHelp,
  logout: IconLogout,
};

export const SettingsIcon = IconSettings;

export interface MenuBadge {
  count: number;
  /** Expired tasks, shown in red beside the open count. */
  expired?: number;
}

/** docs/product/screens-and-routes.md: count badges for tasks (open and expired), monitoring and comments. */
export function menuBadge(key: MenuKey, counts: Counts): MenuBadge | null {
  switch (key) {
    case 'items':
      return { count: counts.items_count ?? 0 };
    case 'monitoring':
      return { count: counts.monitoring_count ?? 0 };
    case 'issues':
      return { count: counts.issues_count ?? 0, expired: counts.issues_expired_count ?? 0 };
    default:
      return null;
  }
}

/** Badge text: large numbers are shortened so the bar keeps its size. */
export function badgeText(count: number): string {
  return count > 999 ? '999+' : String(count);
}
