import type { Dictionary } from './dictionary';
import type { monitoringFeedsRu } from './monitoring-feeds.ru';

export const monitoringFeedsEn: Dictionary<typeof monitoringFeedsRu> = {
  section: 'RSS and Atom feeds',
  hint: 'News sites, blogs and forums: entries that match a query become mentions. Feeds are checked every 15 minutes.',
  add: 'Add a feed',
  none: 'No feeds.',
  newTitle: 'New feed',
  editTitle: 'Feed “{{name}}”',
  name: 'Name',
  url: 'Feed address',
  urlHint: 'An RSS or Atom address, e.g. https://example.com/feed',
  save: 'Save',
  cancel: 'Cancel',
  saved: 'The feed is saved',
  edit: 'Edit',
  delete: 'Delete',
  deleteTitle: 'Delete the feed “{{name}}”?',
  deleteText: 'Its mentions are deleted too.',
  fetchNow: 'Check now',
  fetched_one: '{{count}} new mention',
  fetched_few: '{{count}} new mentions',
  fetched_many: '{{count}} new mentions',
  fetched_other: '{{count}} new mentions',
  lastFetched: 'Checked {{time}}',
  never: 'Not checked yet',
  error: 'Error {{time}}: {{error}}',
};
