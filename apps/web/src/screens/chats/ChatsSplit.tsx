import { InboxSplit } from '../../features/inbox/components/InboxSplit';

/** The layout of the chats list and its record pages: side by side on wide screens (issue 13). */
export default function ChatsSplit() {
  return <InboxSplit kind="chats" />;
}
