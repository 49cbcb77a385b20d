export const PRODUCT_NAME = 'Otklik';

// Issue 18: the unread notifications count leads the tab title, "(3) Comments — Otklik", so a user in
// another tab sees that something happened.
let unread = 0;
const COUNT_PREFIX = /^\(\d+\) /;

const withCount = (title: string) => (unread > 0 ? `(${unread}) ${title}` : title);

/** docs/product/overview.md: the page title is the screen title followed by the product name (and the unread count). */
export function pageTitle(screen?: string): string {
  return withCount(screen ? `${screen} — ${PRODUCT_NAME}` : PRODUCT_NAME);
}

/** Sets the unread count shown in the title and applies it to the current title. */
export function setTitleCount(count: number) {
  unread = Math.max(0, count);
  if (typeof document !== 'undefined') document.title = withCount(document.title.replace(COUNT_PREFIX, ''));
}
