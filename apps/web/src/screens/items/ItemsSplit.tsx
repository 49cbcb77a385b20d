import { InboxSplit } from '../../features/inbox/components/InboxSplit';

/** The layout of the items list and its record pages: side by side on wide screens (issue 13). */
export default function ItemsSplit() {
  return <InboxSplit kind="items" />;
}
