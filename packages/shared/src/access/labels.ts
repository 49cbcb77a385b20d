import type { Locale } from '../i18n';

// Labels of menu entries, settings entries and role names (docs/product/screens-and-routes.md, roles.md), in Russian and English.
// Gate and billing texts ('access.trialOver', 'billing.needPayment', ...) are MessageKeys in messages.ts.

const ru = {
  // Top bar (docs/product/screens-and-routes.md)
  'menu.stats': 'Статистика',
  'menu.chats': 'Личные сообщения',
  'menu.items': 'Комментарии',
  'menu.analytics': 'Аналитика',
  'menu.monitoring': 'Мониторинг',
  'menu.issues': 'Задачи',
  'menu.reports': 'Отчеты',
  'menu.csi': 'CSI',
  'menu.qa': 'Контроль качества',
  'menu.export': 'Экспорт',
  // Settings dropdown (docs/product/screens-and-routes.md)
  'settings.accounts': 'Аккаунты',
  'settings.users': 'Пользователи',
  'settings.schedule': 'График работы',
  'settings.billing': 'Оплата',
  'settings.tags': 'Теги',
  'settings.labels': 'Метки авторов',
  'settings.templates': 'Шаблоны ответов',
  'settings.macros': 'Макросы',
  'settings.rules': 'Автоправила',
  'settings.bots': 'Чат-боты',
  'settings.ai': 'AI-ассистент',
  'settings.audit': 'Журнал действий',
  'settings.random': 'Случайные ответы',
  'settings.errors': 'Ошибки',
  'settings.subscriptions': 'Подписки',
  'settings.email': 'Рассылка email',
  'settings.workinghours': 'Рабочее время',
  'settings.csi': 'CSI',
  'settings.qa': 'Контроль качества',
  'settings.emotions': 'Эмоции',
  'settings.issues': 'Задачи',
  'settings.api': 'API-токены',
  'settings.webhooks': 'Вебхуки',
  // User menu (docs/product/screens-and-routes.md)
  'userMenu.notifications': 'Уведомления',
  'userMenu.profile': 'Профиль',
  'userMenu.config': 'Мои настройки',
  'userMenu.referral': 'Реферальная программа',
  'userMenu.help': 'Помощь',
  'userMenu.logout': 'Выйти',
  // Roles (docs/product/roles.md)
  'role.read-only': 'Только просмотр',
  'role.analyst': 'Аналитик',
  'role.moderator': 'Модератор',
  'role.operator': 'Оператор',
  'role.administrator': 'Администратор',
  'role.custom': 'Особые права',
} as const;

export type AccessLabelKey = keyof typeof ru;

const en: Record<AccessLabelKey, string> = {
  'menu.stats': 'Statistics',
  'menu.chats': 'Personal messages',
  'menu.items': 'Comments',
  'menu.analytics': 'Analytics',
  'menu.monitoring': 'Monitoring',
  'menu.issues': 'Tasks',
  'menu.reports': 'Reports',
  'menu.csi': 'CSI',
  'menu.qa': 'Quality check',
  'menu.export': 'Export',
  'settings.accounts': 'Accounts',
  'settings.users': 'Users',
  'settings.schedule': 'Working schedule',
  'settings.billing': 'Billing',
  'settings.tags': 'Tags',
  'settings.labels': 'Author labels',
  'settings.templates': 'Reply templates',
  'settings.macros': 'Macros',
  'settings.rules': 'Auto-rules',
  'settings.bots': 'Chat-bots',
  'settings.ai': 'AI assistant',
  'settings.audit': 'Action log',
  'settings.random': 'Random replies',
  'settings.errors': 'Errors',
  'settings.subscriptions': 'Subscriptions',
  'settings.email': 'Email sending',
  'settings.workinghours': 'Working hours',
  'settings.csi': 'CSI',
  'settings.qa': 'Quality check',
  'settings.emotions': 'Emotions',
  'settings.issues': 'Tasks',
  'settings.api': 'API tokens',
  'settings.webhooks': 'Webhooks',
  'userMenu.notifications': 'Notifications',
  'userMenu.profile': 'Profile',
  'userMenu.config': 'My settings',
  'userMenu.referral': 'Referral program',
  'userMenu.help': 'Help',
  'userMenu.logout': 'Log out',
  'role.read-only': 'Read-only',
  'role.analyst': 'Analyst',
  'role.moderator': 'Moderator',
  'role.operator': 'Operator',
  'role.administrator': 'Administrator',
  'role.custom': 'Custom',
};

export const ACCESS_LABELS: Readonly<Record<Locale, Readonly<Record<AccessLabelKey, string>>>> = { ru, en };

export function accessLabel(key: AccessLabelKey, locale: Locale): string {
  return ACCESS_LABELS[locale][key];
}
