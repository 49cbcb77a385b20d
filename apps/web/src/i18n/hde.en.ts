import type { hdeRu } from './hde.ru';

export const hdeEn: typeof hdeRu = {
  intro:
    "Operators create HelpDeskEddy tickets from this space's messages and chats; a ticket's status is read back every 5 minutes.",
  domain: 'HelpDeskEddy address',
  domainHint: 'For example, company.helpdeskeddy.com',
  email: 'Staff email',
  apiKey: 'API key',
  apiKeyHint: 'Stored encrypted and never shown again. Leave blank to keep it.',
  apiKeyNew: "The API key is in the HelpDeskEddy staff member's profile settings.",
  save: 'Save',
  test: 'Test the connection',
  checkOk: 'The connection works',
  checkAuth: 'Wrong email or API key',
  checkUnreachable: 'The address does not answer',
  notChecked: 'The connection has not been tested yet',
  created: 'HelpDeskEddy connected',
  notFound: 'Connection not found',
  existing: "This space's connections",
  tickets: {
    title: 'HelpDeskEddy tickets',
    create: 'Create a ticket',
    subject: 'Ticket subject',
    subjectHint: 'Blank takes the first line of the text',
    submit: 'Create',
    cancel: 'Cancel',
    created: 'Ticket created',
    status: 'Status: {{status}}',
    noStatus: 'Status unknown',
    notConfigured: 'HelpDeskEddy is not connected in this space',
    setUp: 'Connect',
  },
};
