import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useShell } from '../../../shell/ShellContext';
import type { ListKind } from '../model/filters';
import { defaultListSearch, hasFilters } from '../model/listDefaults';

/**
 * Opens the list with "my settings" filters (model/listDefaults.ts) once per visit: only when the address
 * has no filter, and not again after the person clears them while on the list. False until decided, so
 * the list does not load its unfiltered first page for nothing.
 */
export function useListDefaults(kind: ListKind, enabled = true): boolean {
  const { user, objects } = useShell();
  const [params, setParams] = useSearchParams();
  const [decided, setDecided] = useState(false);
  const needsAccounts = typeof user.settings.company_id === 'number' && !user.settings.object_id;
  const ready = !needsAccounts || objects !== undefined;
  useEffect(() => {
    // Disabled while the split view shows a record beside the list: its address is the record's.
    if (decided || !ready || !enabled) return;
    setDecided(true);
    if (hasFilters(params, kind)) return;
    const defaults = defaultListSearch(user.settings, kind, {
      accounts: objects?.items ?? [],
      myId: user.id,
    });
    if (!defaults) return;
    for (const [key, value] of params) defaults.append(key, value);
    setParams(defaults, { replace: true });
  }, [decided, ready, enabled, params, kind, user, objects, setParams]);
  return decided || !enabled;
}
