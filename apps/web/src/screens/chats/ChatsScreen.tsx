import { InboxListView } from '../../features/inbox/components/InboxListView';
import { SplitEmpty, useSplitPane } from '../../features/inbox/components/InboxSplit';
import { useListDefaults } from '../../features/inbox/hooks/useListDefaults';

/** chats — personal messages (docs/product/screens-and-routes.md); opened with "my settings" filters. */
export default function ChatsScreen() {
  // In the split view the list is the layout's (left); this route's pane waits for a record.
  return useSplitPane() ? <SplitEmpty kind="chats" /> : <ChatsList />;
}

function ChatsList() {
  return useListDefaults('chats') ? <InboxListView kind="chats" /> : null;
}
