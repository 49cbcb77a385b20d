import type { ListKind } from './filters';

// The item and chat pages walk the list the operator came from (j/k, issue 13): the list screen leaves
// its address's filters here, per tab (sessionStorage), and the page reads the same list with them.

const keyOf = (kind: ListKind) => `otklik:list:${kind}`;

export function rememberList(kind: ListKind, search: string) {
  try {
    sessionStorage.setItem(keyOf(kind), search);
  } catch {
    // Storage off (private mode, quota): the page then walks the default list.
  }
}

export function recalledList(kind: ListKind): string {
  try {
    return sessionStorage.getItem(keyOf(kind)) ?? '';
  } catch {
    return '';
  }
}
