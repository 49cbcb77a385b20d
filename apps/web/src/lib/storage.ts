// localStorage that never throws (private mode, disabled storage, quota).

export function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStorage(key: string, value: string) {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Not remembered; the app still works for this visit.
  }
}

export function removeStorage(key: string) {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // Nothing to remove.
  }
}

export const safeLocalStorage = { getItem: readStorage, setItem: writeStorage, removeItem: removeStorage };
