import type { RouteName } from '@otklik/shared/routes';
import type { ComponentType, LazyExoticComponent } from 'react';
import { lazyScreen } from './lazyScreen';

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
  'callback-tpulse': accountCallbackScreen,
  'settings-profile': lazyScreen(() => import('../screens/settings/profile/ProfileScreen')),
  // Inbox (comments, personal messages, authors), the sandbox customer page, account/tag/label settings.
  items: lazyScreen(() => import('../screens/items/ItemsScreen')),
  item: lazyScreen(() => import('../screens/items/ItemScreen')),
  chats: lazyScreen(() => import('../screens/chats/ChatsScreen')),
  'chat-messages': lazyScreen(() => import('../screens/chats/ChatScreen')),
  'items-authors': lazyScreen(() => import('../screens/authors/AuthorsScreen')),
  'chats-authors': lazyScreen(() => import('../screens/authors/AuthorsScreen')),
  'issues-authors': lazyScreen(() => import('../screens/authors/AuthorsScreen')),
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
