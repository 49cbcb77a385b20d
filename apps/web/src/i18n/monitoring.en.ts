import type { monitoringRu } from './monitoring.ru';

type Dictionary<T> = { [K in keyof T]: T[K] extends string ? string : Dictionary<T[K]> };

export const monitoringEn: Dictionary<typeof monitoringRu> = {
  heading: 'Monitoring',
  hint: 'Queries look for words in new public comments and reviews of the connected accounts. What they find lands here, not in the inbox.',
  queries: 'Queries',
  add: 'Add a query',
  edit: 'Edit',
  delete: 'Delete',
  deleteTitle: 'Delete the query “{{name}}”?',
  deleteText: 'The mentions it found are deleted too.',
  noQueries: 'No queries yet. Add the first one, for example: delivery AND NOT thanks.',
  limit: 'Queries: {{count}} of {{limit}}',
  name: 'Name',
  query: 'Query',
  syntax:
    'Whole words, any case. AND — both words, OR — either, NOT or “-” before a word — exclude, "a quoted phrase" — words in a row, NEAR/3 — at most three words apart, parentheses group. Example: (delivery OR courier) AND NOT thanks',
  save: 'Save',
  cancel: 'Cancel',
  newTitle: 'New query',
  editTitle: 'Query “{{name}}”',
  saved: 'The query is saved',
  unread: '{{count}} new',
  total: 'Total: {{count}}',
  empty: 'Nothing found by this query yet. New mentions will appear here by themselves.',
  pick: 'Pick a query on the left',
  open: 'Open',
  source: 'Source',
  markRead: 'Read',
  markAllRead: 'Mark all read',
  new: 'New',
  unknownAuthor: 'Unknown author',
  prev: 'Back',
  next: 'Next',
  page: 'Page {{page}}',
};
