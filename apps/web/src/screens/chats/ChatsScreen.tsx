import { InboxListView } from '../../features/inbox/components/InboxListView';

/** chats — personal messages (SPEC §2). */
export default function ChatsScreen() {
  return <InboxListView kind="chats" />;
}
