import type { Dictionary } from './dictionary';
import type { spaceRu } from './space.ru';

export const spaceEn: Dictionary<typeof spaceRu> = {
  hint: "The space's name and time zone, its tariff and limits, and the features you can switch on.",
  none: 'You are not an administrator of any space.',
  general: 'General',
  name: 'Name',
  timezone: 'Time zone',
  timezoneHint: 'Work schedules and business-hours statistics use it.',
  tariff: 'Tariff and limits',
  trial: 'Trial',
  paid: 'Paid',
  until: 'until {{date}}',
  users: 'Users',
  accounts: 'Accounts',
  usedOf: '{{used}} of {{max}}',
  usedUnlimited: '{{used}}, unlimited',
  toBilling: 'Billing and tariffs',
  features: 'Features',
  featuresHint:
    'Switch on what your team uses. The tariff “{{tariff}}” decides which features are available.',
  notInTariff: 'Not available on the current tariff.',
  create: 'New space',
  createTitle: 'New space',
  createHint:
    'Separate accounts, users and settings — for another brand or client, say. You become its administrator.',
  createSubmit: 'Create',
  created: 'Space “{{name}}” created',
  flags: {
    otp_required: {
      name: 'Two-factor authentication required',
      hint: 'Users without a second factor can only open their profile to turn it on.',
    },
    labels: { name: 'Author labels', hint: 'Labels for authors: VIP, spam, partner and more.' },
    user_workinghours: {
      name: 'Work schedules',
      hint: 'Shifts, schedule templates, absences and status changes by schedule.',
    },
    templates: { name: 'Reply templates', hint: 'Ready replies with variables for operators.' },
    macros: { name: 'Macros', hint: 'Several actions on a conversation with one click.' },
    issues: { name: 'Tasks', hint: 'Tasks on conversations with due dates, assignees and departments.' },
    subscriptions: {
      name: 'Notification subscriptions',
      hint: 'Notifications by email, Telegram and Slack.',
    },
    reports: { name: 'Reports', hint: 'Scheduled reports by email.' },
    analytics: { name: 'Analytics', hint: 'The analytics section in the main menu.' },
    audit: { name: 'Action log', hint: 'Who changed what in the space, and when.' },
    random: { name: 'Random replies', hint: 'A random sample of replies for quality checks.' },
    bots: { name: 'Chat bots', hint: 'Bot scenarios in messengers.' },
    ai: { name: 'AI assistant', hint: 'Reply suggestions, translation and conversation summaries.' },
    csi_menu: { name: 'CSI', hint: 'Customer satisfaction surveys after a conversation is closed.' },
    qa: { name: 'Quality check', hint: "Scoring operators' replies against scorecards." },
    youscan: { name: 'YouScan', hint: 'Mentions from YouScan in monitoring.' },
  },
};
