import { Center, Loader, Text } from '@mantine/core';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { type ReactNode, useEffect, useLayoutEffect, useRef, useState } from 'react';

// A long list rendered a screenful at a time (ARCHITECTURE: long lists are virtualized). The page itself
// scrolls (the app shell has a fixed header), so the window is the scroll element; rows measure their own
// height. Reaching the last rows asks for the next keyset page.

export interface VirtualListProps {
  count: number;
  getKey: (index: number) => number | string;
  renderRow: (index: number) => ReactNode;
  estimateSize?: number;
  /** Index to keep in view (the keyboard cursor). */
  focusIndex?: number;
  hasNextPage?: boolean;
  isFetchingNextPage?: boolean;
  fetchNextPage?: () => void;
  footer?: ReactNode;
  label?: string;
}

/** How many rows before the end the next page is asked for. */
const PREFETCH_ROWS = 10;

export function VirtualList({
  count,
  getKey,
  renderRow,
  estimateSize = 88,
  focusIndex = -1,
  hasNextPage = false,
  isFetchingNextPage = false,
  fetchNextPage,
  footer,
  label,
}: VirtualListProps) {
  const listRef = useRef<HTMLDivElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);

  useLayoutEffect(() => {
    const measure = () => {
      const element = listRef.current;
      if (element) setScrollMargin(element.getBoundingClientRect().top + window.scrollY);
    };
    measure();
    window.addEventListener('resize', measure);
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    if (observer && listRef.current?.parentElement) observer.observe(listRef.current.parentElement);
    return () => {
      window.removeEventListener('resize', measure);
      observer?.disconnect();
    };
  }, []);

  const virtualizer = useWindowVirtualizer({
    count,
    estimateSize: () => estimateSize,
    overscan: 6,
    scrollMargin,
    getItemKey: getKey,
  });
  const rows = virtualizer.getVirtualItems();
  const lastShown = rows.length > 0 ? rows[rows.length - 1]!.index : -1;

  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && fetchNextPage && lastShown >= count - PREFETCH_ROWS)
      fetchNextPage();
  }, [lastShown, count, hasNextPage, isFetchingNextPage, fetchNextPage]);

  useEffect(() => {
    if (focusIndex >= 0 && focusIndex < count) virtualizer.scrollToIndex(focusIndex, { align: 'auto' });
  }, [focusIndex, count, virtualizer]);

  return (
    <div ref={listRef} data-testid="virtual-list" data-count={count}>
      <ul
        aria-label={label}
        style={{
          height: virtualizer.getTotalSize(),
          position: 'relative',
          width: '100%',
          margin: 0,
          padding: 0,
          listStyle: 'none',
        }}
      >
        {rows.map((row) => (
          <li
            key={row.key}
            data-index={row.index}
            ref={virtualizer.measureElement}
            style={{
              position: 'absolute',
              top: 0,
              left: 0,
              width: '100%',
              transform: `translateY(${row.start - virtualizer.options.scrollMargin}px)`,
            }}
          >
            {renderRow(row.index)}
          </li>
        ))}
      </ul>
      {isFetchingNextPage && (
        <Center py="md">
          <Loader size="sm" />
        </Center>
      )}
      {!hasNextPage && count > 0 && footer && (
        <Text ta="center" c="dimmed" fz="xs" py="md">
          {footer}
        </Text>
      )}
    </div>
  );
}
