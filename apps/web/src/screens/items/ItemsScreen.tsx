import { InboxListView } from '../../features/inbox/components/InboxListView';
import { SplitEmpty, useSplitPane } from '../../features/inbox/components/InboxSplit';
import { useListDefaults } from '../../features/inbox/hooks/useListDefaults';

/** items — comments, reviews and mentions (docs/product/screens-and-routes.md); opened with "my settings" filters. */
export default function ItemsScreen() {
  // In the split view the list is the layout's (left); this route's pane waits for a record.
  return useSplitPane() ? <SplitEmpty kind="items" /> : <ItemsList />;
}

function ItemsList() {
  return useListDefaults('items') ? <InboxListView kind="items" /> : null;
}
