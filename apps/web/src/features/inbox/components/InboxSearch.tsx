import { CloseButton, Kbd, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useLocale } from '../../../i18n/useLocale';
import { formatDate } from '../../../lib/format';
import { useInboxT } from '../i18n';
import { FILTER_STATUSES, type InboxFilters, type ListKind } from '../model/filters';

/** Whether a key press was meant for a field, not for the page (typing, a dialog or menu open). */
function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)) return true;
  return target.closest('[role="dialog"], [role="menu"], [role="listbox"]') !== null;
}

/**
 * The list's search field in the header: Enter searches, clearing stops searching, `/` anywhere on the
 * list (not while typing) puts the cursor here.
 */
export function InboxSearchField({ value, onSearch }: { value: string; onSearch: (q: string) => void }) {
  const t = useInboxT();
  const [text, setText] = useState(value);
  const input = useRef<HTMLInputElement>(null);
  // The address changed (the drawer, a saved filter, back/forward): the field follows.
  useEffect(() => setText(value), [value]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented)
        return;
      if (isTypingTarget(event.target)) return;
      event.preventDefault();
      input.current?.focus();
      input.current?.select();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <TextInput
      ref={input}
      type="search"
      size="xs"
      w={{ base: '100%', xs: 240 }}
      value={text}
      onChange={(event) => {
        const next = event.currentTarget.value;
        setText(next);
        if (next === '' && value !== '') onSearch('');
      }}
      onKeyDown={(event) => {
        if (event.key === 'Enter') {
          event.preventDefault();
          onSearch(text.trim());
        } else if (event.key === 'Escape') event.currentTarget.blur();
      }}
      placeholder={t('search.placeholder')}
      aria-label={t('search.label')}
      aria-keyshortcuts="/"
      leftSection={<IconSearch size={14} />}
      rightSection={
        text ? (
          <CloseButton size="sm" aria-label={t('search.clear')} onClick={() => onSearch('')} />
        ) : (
          <Kbd size="xs">/</Kbd>
        )
      }
      data-testid="inbox-search"
    />
  );
}

/** While searching: what the results span — which statuses and which dates (issue 13: say it, don't hide it). */
export function SearchScope({ filters, kind }: { filters: InboxFilters; kind: ListKind }) {
  const t = useInboxT();
  const locale = useLocale();
  if (!filters.q) return null;
  const every = FILTER_STATUSES[kind].every((status) => filters.status.includes(status));
  const statuses = every
    ? t('search.allStatuses')
    : FILTER_STATUSES[kind]
        .filter((status) => filters.status.includes(status))
        .map((status) => t(`status.${status}`).toLowerCase())
        .join(', ');
  const from = filters.created_at_from;
  const to = filters.created_at_to;
  const dates =
    from !== null && to !== null
      ? t('search.between', { from: formatDate(from, locale), to: formatDate(to, locale) })
      : from !== null
        ? t('search.since', { from: formatDate(from, locale) })
        : to !== null
          ? t('search.until', { to: formatDate(to, locale) })
          : t('search.anyDate');
  return (
    <Text fz="sm" c="dimmed" data-testid="search-scope" data-all-statuses={every || undefined}>
      {t('search.scope', { q: filters.q, statuses, dates })}
    </Text>
  );
}
