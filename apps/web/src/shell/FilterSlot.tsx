import { Drawer } from '@mantine/core';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { type FilterCounting, filterButtonCount } from './routing';

// docs/product/screens-and-routes.md filter button: the top bar owns the button (with the number of applied filters) and a drawer;
// a screen fills the drawer with its own filter form:
//
//   <FilterSlot keys={['status', 'provider']}>
//     <MyFilters onApply={() => filters.close()} />   // const filters = useFilterSlot();
//   </FilterSlot>
//
// The form is rendered in the screen's own React tree (its state and context stay there) and shown in the
// drawer through a portal. The button appears while a FilterSlot is mounted.

interface Registration extends FilterCounting {
  title?: string;
}

interface FilterSlotContextValue {
  registration: Registration | null;
  register(registration: Registration): () => void;
  target: HTMLElement | null;
  opened: boolean;
  open(): void;
  close(): void;
}

const FilterSlotContext = createContext<FilterSlotContextValue | null>(null);

export function FilterSlotProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [registration, setRegistration] = useState<Registration | null>(null);
  const [target, setTarget] = useState<HTMLElement | null>(null);
  const [opened, setOpened] = useState(false);
  const { pathname } = useLocation();

  const register = useCallback((next: Registration) => {
    setRegistration(next);
    return () => {
      setRegistration((current) => (current === next ? null : current));
      setOpened(false);
    };
  }, []);
  const open = useCallback(() => setOpened(true), []);
  const close = useCallback(() => setOpened(false), []);

  // A new page starts with the drawer closed.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on route change
  useEffect(() => setOpened(false), [pathname]);

  const value = useMemo(
    () => ({ registration, register, target, opened, open, close }),
    [registration, register, target, opened, open, close],
  );

  return (
    <FilterSlotContext.Provider value={value}>
      {children}
      <Drawer
        opened={opened && registration !== null}
        onClose={close}
        position="right"
        size="sm"
        keepMounted
        title={registration?.title ?? t('shell.filters.title')}
        data-testid="filter-drawer"
      >
        <div ref={setTarget} />
      </Drawer>
    </FilterSlotContext.Provider>
  );
}

export interface FilterSlotApi {
  /** A screen has put a filter form in the slot. */
  isAvailable: boolean;
  /** Filters applied in the current address. */
  appliedCount: number;
  opened: boolean;
  open(): void;
  close(): void;
}

/** The filter drawer: open/close it from a screen's form, read the applied-filter count. */
export function useFilterSlot(): FilterSlotApi {
  const context = useContext(FilterSlotContext);
  const { search } = useLocation();
  if (!context) throw new Error('useFilterSlot outside FilterSlotProvider');
  return {
    isAvailable: context.registration !== null,
    appliedCount: filterButtonCount(search, context.registration),
    opened: context.opened,
    open: context.open,
    close: context.close,
  };
}

/** Puts its children (a filter form) into the top bar's filter drawer while mounted. */
export function FilterSlot({ title, keys, count, children }: Registration & { children: ReactNode }) {
  const context = useContext(FilterSlotContext);
  if (!context) throw new Error('FilterSlot outside FilterSlotProvider');
  const { register, target } = context;
  const keyList = keys?.join(',');
  // Keys are compared by value (a new array every render must not re-register); `count` must be stable.
  useEffect(
    () => register({ title, keys: keyList ? keyList.split(',') : undefined, count }),
    [register, title, keyList, count],
  );
  return target ? createPortal(children, target) : null;
}
