import type { RouteName } from '@otklik/shared/routes';
import type { ComponentType, LazyExoticComponent } from 'react';
import { lazyScreen } from '../lib/lazyScreen';

const accountCallbackScreen = lazyScreen(() => import('../screens/callback/CallbackScreen'));

// Built screens by route name; every other route shows its title and a "coming soon" state.
export const screens: Partial<Record<RouteName, LazyExoticComponent<ComponentType>>> = {
  login: lazyScreen(() => import('../screens/auth/LoginScreen')),
  'login-provider': lazyScreen(() => import('../screens/auth/ProviderCallbackScreen')),
  signup: lazyScreen(() => import('../screens/auth/SignupScreen')),
  'signup-invitation': lazyScreen(() => import('../screens/auth/InvitationSignupScreen')),
  recovery: lazyScreen(() => import('../screens/auth/RecoveryScreen')),
  'reset-password': lazyScreen(() => import('../screens/auth/ResetPasswordScreen')),
  'confirm-email': lazyScreen(() => import('../screens/auth/ConfirmEmailScreen')),
  'delete-request': lazyScreen(() => import('../screens/auth/DeleteRequestScreen')),
  // Login-required popup callbacks of connecting an account: one screen, the provider from the path.
  'callback-vk': accountCallbackScreen,
  'callback-ok': accountCallbackScreen,
  'callback-facebook': accountCallbackScreen,
  'callback-twitter': accountCallbackScreen,
  'callback-instagram': accountCallbackScreen,
  'callback-youtube': accountCallbackScreen,
  'callback-slack': accountCallbackScreen,
  'callback-google': accountCallbackScreen,
  'callback-gmaps': accountCallbackScreen,
  'callback-avito': accountCallbackScreen,
  'callback-threads': accountCallbackScreen,
  'callback-tpulse': accountCallbackScreen,
  // Public in the route table (SPEC: TikTok returns to one fixed address); the screen asks to sign in.
  'callback-tiktok': accountCallbackScreen,
  // Third-party apps: the consent screen, or without a request the apps management screen.
  oauth: lazyScreen(() => import('../screens/oauth/OAuthScreen')),
  // Statistics (features/stats): one frame, the tabs built so far.
  stats: lazyScreen(() => import('../features/stats/screens/OverviewScreen')),
  'stats-overall': lazyScreen(() => import('../features/stats/screens/OverallScreen')),
  'stats-replies': lazyScreen(() => import('../features/stats/screens/RepliesScreen')),
  'stats-hours': lazyScreen(() => import('../features/stats/screens/HoursScreen')),
  'stats-users': lazyScreen(() => import('../features/stats/screens/UsersScreen')),
  'stats-users-closed': lazyScreen(() => import('../features/stats/screens/ClosedScreen')),
  'stats-time': lazyScreen(() => import('../features/stats/screens/TimeScreen')),
  'stats-userstime': lazyScreen(() => import('../features/stats/screens/UsersTimeScreen')),
  'stats-tags': lazyScreen(() => import('../features/stats/screens/TagsScreen')),
  'stats-posts': lazyScreen(() => import('../features/stats/screens/PostsScreen')),
  'stats-emotions': lazyScreen(() => import('../features/stats/screens/EmotionsScreen')),
  'stats-my': lazyScreen(() => import('../features/stats/screens/MyScreen')),
  'stats-user': lazyScreen(() => import('../features/stats/screens/UserScreen')),
  'stats-export': lazyScreen(() => import('../features/stats/screens/ExportScreen')),
  'stats-issues': lazyScreen(() => import('../features/stats/screens/IssuesStatsScreen')),
  'stats-users-statuses': lazyScreen(() => import('../features/stats/screens/StatusesScreen')),
  'stats-my-statuses': lazyScreen(() => import('../features/stats/screens/MyStatusesScreen')),
  'stats-user-statuses': lazyScreen(() => import('../features/stats/screens/UserStatusesScreen')),
  'stats-users-workinghours': lazyScreen(() => import('../features/stats/screens/WorkinghoursScreen')),
  'stats-user-workinghours': lazyScreen(() => import('../features/stats/screens/UserWorkinghoursScreen')),
  analytics: lazyScreen(() => import('../features/stats/screens/AnalyticsScreen')),
  'stats-dashboard': lazyScreen(() => import('../features/stats/screens/DashboardScreen')),
  dashboard: lazyScreen(() => import('../features/stats/screens/DashboardScreen')),
  'stats-live': lazyScreen(() => import('../features/stats/screens/LiveScreen')),
  live: lazyScreen(() => import('../features/stats/screens/LiveScreen')),
  'stats-rules': lazyScreen(() => import('../features/stats/screens/RulesStatsScreen')),
  'stats-csi': lazyScreen(() => import('../features/stats/screens/CsiStatsScreen')),
  csi: lazyScreen(() => import('../screens/csi/CsiScreen')),
  'monitoring-page': lazyScreen(() => import('../screens/monitoring/MonitoringScreen')),
  'youscan-new': lazyScreen(() => import('../screens/monitoring/YouscanScreen')),
  youscan: lazyScreen(() => import('../screens/monitoring/YouscanScreen')),
  'settings-csi': lazyScreen(() => import('../screens/settings/csi/CsiSettingsScreen')),
  'stats-bots': lazyScreen(() => import('../features/stats/screens/BotsStatsScreen')),
  // Scheduled reports: the statistics tab and the /reports section, one screen (docs/statistics.md).
  'stats-reports': lazyScreen(() => import('../features/stats/screens/ReportsScreen')),
  reports: lazyScreen(() =>
    import('../features/stats/screens/ReportsScreen').then((m) => ({ default: m.ReportsSection })),
  ),
  'settings-profile': lazyScreen(() => import('../screens/settings/profile/ProfileScreen')),
  'settings-custom-facts': lazyScreen(() => import('../screens/settings/facts/FactsScreen')),
  'settings-logs': lazyScreen(() => import('../screens/settings/logs/LogsScreen')),
  'settings-other': lazyScreen(() => import('../screens/settings/other/SpaceSettingsScreen')),
  'settings-billing': lazyScreen(() => import('../screens/settings/billing/BillingScreen')),
  'settings-billing-report': lazyScreen(() => import('../screens/settings/billing/BillingReportScreen')),
  'settings-referral': lazyScreen(() => import('../screens/settings/referral/ReferralScreen')),
  'settings-api': lazyScreen(() => import('../screens/settings/api/ApiTokensScreen')),
  'settings-webhooks': lazyScreen(() => import('../screens/settings/webhooks/WebhooksScreen')),
  'settings-hde': lazyScreen(() => import('../screens/settings/hde/HdeScreen')),
  'settings-hde-new': lazyScreen(() => import('../screens/settings/hde/HdeScreen')),
  // Notifications (issue 18): my subscriptions, the space's defaults and quiet hours.
  'settings-subscriptions': lazyScreen(() => import('../screens/settings/notifications/SubscriptionsScreen')),
  'settings-notifications': lazyScreen(
    () => import('../screens/settings/notifications/SpaceNotificationsScreen'),
  ),
  'settings-email': lazyScreen(() => import('../screens/settings/notifications/EmailSettingsScreen')),
  // Inbox (comments, personal messages, authors), the sandbox customer page, account/tag/label settings.
  items: lazyScreen(() => import('../screens/items/ItemsScreen')),
  item: lazyScreen(() => import('../screens/items/ItemScreen')),
  chats: lazyScreen(() => import('../screens/chats/ChatsScreen')),
  'chat-messages': lazyScreen(() => import('../screens/chats/ChatScreen')),
  'items-authors': lazyScreen(() => import('../screens/authors/AuthorsScreen')),
  'chats-authors': lazyScreen(() => import('../screens/authors/AuthorsScreen')),
  'issues-authors': lazyScreen(() => import('../screens/authors/AuthorsScreen')),
  // Tasks (issue 16).
  issues: lazyScreen(() => import('../features/issues/IssuesScreen')),
  'issue-page': lazyScreen(() => import('../features/issues/IssueScreen')),
  'settings-issues': lazyScreen(() => import('../features/issues/IssuesSettingsScreen')),
  author: lazyScreen(() => import('../screens/authors/AuthorScreen')),
  sandbox: lazyScreen(() => import('../screens/sandbox/SandboxScreen')),
  'settings-accounts': lazyScreen(() => import('../screens/settings/accounts/AccountsScreen')),
  'settings-accounts-add': lazyScreen(() => import('../screens/settings/accounts/AddAccountScreen')),
  'settings-accounts-add-success': lazyScreen(() => import('../screens/settings/accounts/AddSuccessScreen')),
  'settings-account': lazyScreen(() => import('../screens/settings/accounts/AccountScreen')),
  'settings-account-exclude': lazyScreen(() =>
    import('../screens/settings/accounts/AccountSettingScreens').then((m) => ({
      default: m.AccountExcludeScreen,
    })),
  ),
  'settings-accounts-exclude-messages': lazyScreen(() =>
    import('../screens/settings/accounts/AccountSettingScreens').then((m) => ({
      default: m.ExcludeMessagesScreen,
    })),
  ),
  'settings-accounts-chats': lazyScreen(() =>
    import('../screens/settings/accounts/AccountSettingScreens').then((m) => ({
      default: m.AccountToggleScreen,
    })),
  ),
  'settings-accounts-stickers': lazyScreen(() =>
    import('../screens/settings/accounts/AccountSettingScreens').then((m) => ({
      default: m.AccountToggleScreen,
    })),
  ),
  'settings-accounts-reactions': lazyScreen(() =>
    import('../screens/settings/accounts/AccountSettingScreens').then((m) => ({
      default: m.AccountToggleScreen,
    })),
  ),
  'settings-tags': lazyScreen(() =>
    import('../screens/settings/tags/TagsScreens').then((m) => ({ default: m.TagsScreen })),
  ),
  'settings-tags-new': lazyScreen(() =>
    import('../screens/settings/tags/TagsScreens').then((m) => ({ default: m.TagScreen })),
  ),
  'settings-tag': lazyScreen(() =>
    import('../screens/settings/tags/TagsScreens').then((m) => ({ default: m.TagScreen })),
  ),
  'settings-tag-children': lazyScreen(() =>
    import('../screens/settings/tags/TagsScreens').then((m) => ({ default: m.TagChildrenScreen })),
  ),
  'settings-tag-groups': lazyScreen(() =>
    import('../screens/settings/tag_groups/TagGroupsScreens').then((m) => ({ default: m.TagGroupsScreen })),
  ),
  'settings-tag-groups-new': lazyScreen(() =>
    import('../screens/settings/tag_groups/TagGroupsScreens').then((m) => ({ default: m.TagGroupScreen })),
  ),
  'settings-tag-group': lazyScreen(() =>
    import('../screens/settings/tag_groups/TagGroupsScreens').then((m) => ({ default: m.TagGroupScreen })),
  ),
  'settings-templates': lazyScreen(() =>
    import('../screens/settings/templates/TemplatesScreens').then((m) => ({ default: m.TemplatesScreen })),
  ),
  'settings-templates-new': lazyScreen(() =>
    import('../screens/settings/templates/TemplatesScreens').then((m) => ({ default: m.TemplateScreen })),
  ),
  'settings-template': lazyScreen(() =>
    import('../screens/settings/templates/TemplatesScreens').then((m) => ({ default: m.TemplateScreen })),
  ),
  qa: lazyScreen(() => import('../screens/qa/QaScreens').then((m) => ({ default: m.QaOverviewScreen }))),
  'qa-review': lazyScreen(() =>
    import('../screens/qa/QaScreens').then((m) => ({ default: m.QaReviewScreen })),
  ),
  'qa-my': lazyScreen(() => import('../screens/qa/QaScreens').then((m) => ({ default: m.QaMyScreen }))),
  'qa-stats': lazyScreen(() => import('../screens/qa/QaScreens').then((m) => ({ default: m.QaStatsScreen }))),
  'qa-item': lazyScreen(() =>
    import('../screens/qa/QaSampleScreen').then((m) => ({ default: m.QaSampleScreen })),
  ),
  'qa-chat': lazyScreen(() =>
    import('../screens/qa/QaSampleScreen').then((m) => ({ default: m.QaSampleScreen })),
  ),
  'settings-qa': lazyScreen(() =>
    import('../screens/settings/qa/QaSettingsScreens').then((m) => ({ default: m.QaSettingsScreen })),
  ),
  'settings-logsrandom': lazyScreen(() =>
    import('../screens/settings/qa/QaSettingsScreens').then((m) => ({ default: m.LogsRandomScreen })),
  ),
  'settings-macros': lazyScreen(() =>
    import('../screens/settings/macros/MacrosScreens').then((m) => ({ default: m.MacrosScreen })),
  ),
  'settings-macros-new': lazyScreen(() =>
    import('../screens/settings/macros/MacrosScreens').then((m) => ({ default: m.MacroScreen })),
  ),
  'settings-macro': lazyScreen(() =>
    import('../screens/settings/macros/MacrosScreens').then((m) => ({ default: m.MacroScreen })),
  ),
  'settings-ai': lazyScreen(() =>
    import('../screens/settings/ai/AiScreens').then((m) => ({ default: m.AiAgentsScreen })),
  ),
  'settings-ai-create': lazyScreen(() =>
    import('../screens/settings/ai/AiScreens').then((m) => ({ default: m.AiAgentScreen })),
  ),
  'settings-ai-agent': lazyScreen(() =>
    import('../screens/settings/ai/AiScreens').then((m) => ({ default: m.AiAgentScreen })),
  ),
  'settings-bots': lazyScreen(() =>
    import('../screens/settings/bots/BotsScreens').then((m) => ({ default: m.BotsScreen })),
  ),
  'settings-bots-create': lazyScreen(() =>
    import('../screens/settings/bots/BotsScreens').then((m) => ({ default: m.BotScreen })),
  ),
  'settings-bot': lazyScreen(() =>
    import('../screens/settings/bots/BotsScreens').then((m) => ({ default: m.BotScreen })),
  ),
  'settings-emotions': lazyScreen(() => import('../screens/settings/emotions/EmotionsSettingsScreen')),
  'settings-rules': lazyScreen(() =>
    import('../screens/settings/rules/RulesScreens').then((m) => ({ default: m.RulesScreen })),
  ),
  'settings-rules-create': lazyScreen(() =>
    import('../screens/settings/rules/RulesScreens').then((m) => ({ default: m.RuleScreen })),
  ),
  'settings-rule': lazyScreen(() =>
    import('../screens/settings/rules/RulesScreens').then((m) => ({ default: m.RuleScreen })),
  ),
  'settings-labels': lazyScreen(() =>
    import('../screens/settings/labels/LabelsScreens').then((m) => ({ default: m.LabelsScreen })),
  ),
  'settings-labels-new': lazyScreen(() =>
    import('../screens/settings/labels/LabelsScreens').then((m) => ({ default: m.LabelScreen })),
  ),
  'settings-label': lazyScreen(() =>
    import('../screens/settings/labels/LabelsScreens').then((m) => ({ default: m.LabelScreen })),
  ),
  'settings-label-authors': lazyScreen(() =>
    import('../screens/settings/labels/LabelsScreens').then((m) => ({ default: m.LabelAuthorsScreen })),
  ),
  // Settings (lazy: none of them is in the first load)
  settings: lazyScreen(() => import('../screens/settings/home/SettingsIndexScreen')),
  'settings-users': lazyScreen(() => import('../screens/settings/users/UsersScreen')),
  'settings-users-new': lazyScreen(() => import('../screens/settings/users/InviteUserScreen')),
  'settings-user': lazyScreen(() => import('../screens/settings/users/UserScreen')),
  'settings-users-workinghours': lazyScreen(() => import('../screens/settings/schedule/ScheduleScreen')),
  'settings-users-workinghours-templates': lazyScreen(
    () => import('../screens/settings/schedule/TemplatesScreen'),
  ),
  'settings-users-workinghours-absences': lazyScreen(
    () => import('../screens/settings/schedule/AbsencesScreen'),
  ),
  'settings-users-workinghours-my': lazyScreen(
    () => import('../screens/settings/schedule/UserScheduleScreen'),
  ),
  'settings-user-workinghours': lazyScreen(() => import('../screens/settings/schedule/UserScheduleScreen')),
  'settings-workinghours': lazyScreen(() => import('../screens/settings/workinghours/WorkingHoursScreen')),
  'settings-config': lazyScreen(() => import('../screens/settings/config/MySettingsScreen')),
  'settings-errors': lazyScreen(() => import('../screens/settings/errors/ErrorsScreen')),
};
