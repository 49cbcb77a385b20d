import { useEffect, useRef } from 'react';
import { type ItemCommand, itemCommandFor } from '../model/itemKeys';

/** The item and chat pages' single-key shortcuts (model/itemKeys.ts); a command without a handler is not taken. */
export function useRecordKeys(handlers: Partial<Record<ItemCommand, () => void>>) {
  const ref = useRef(handlers);
  ref.current = handlers;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return;
      const target = event.target as HTMLElement | null;
      const command = itemCommandFor({
        key: event.key,
        ctrlKey: event.ctrlKey,
        metaKey: event.metaKey,
        altKey: event.altKey,
        targetTag: target?.tagName,
        editable: target?.isContentEditable,
        inOverlay: Boolean(target?.closest('[role="dialog"], [role="menu"], [role="listbox"]')),
      });
      const handler = command ? ref.current[command] : undefined;
      if (!handler) return;
      event.preventDefault();
      handler();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

/** Focus (and open) a control found by selector; false when the page has none. */
export function focusControl(selector: string): boolean {
  const element = document.querySelector<HTMLElement>(selector);
  if (!element) return false;
  element.scrollIntoView({ block: 'center' });
  element.focus();
  return true;
}

/**
 * The item and chat pages' shortcuts wired to the page: r goes to the reply box, e presses the page's
 * Close (so its confirmations apply), t opens the tag picker, / focuses the header search when the
 * page has one, j/k walk the list, ? opens the help.
 */
export function useRecordShortcuts(options: {
  nav: { goNext: () => void; goPrev: () => void };
  onHelp: () => void;
  canReply: boolean;
  canTag: boolean;
  assignMe?: () => void;
}) {
  useRecordKeys({
    reply: options.canReply ? () => void focusControl('[data-testid="composer-text"]') : undefined,
    close: () => {
      const close =
        document.querySelector<HTMLElement>('[data-testid="action-close"]') ??
        document.querySelector<HTMLElement>('[data-testid="action-close-noreply"]');
      close?.click();
    },
    assignMe: options.assignMe,
    tag: options.canTag
      ? () => {
          if (focusControl('[data-testid="tag-picker"]'))
            document.querySelector<HTMLElement>('[data-testid="tag-picker"]')?.click();
        }
      : undefined,
    next: options.nav.goNext,
    prev: options.nav.goPrev,
    search: () =>
      void focusControl(
        '[data-testid="inbox-search"] input, input[data-testid="inbox-search"], [role="search"] input',
      ),
    help: options.onHelp,
  });
}
