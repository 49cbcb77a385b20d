import type { ProviderId } from '@otklik/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { startAccountOAuth } from '../../../api/accounts';
import { queryKeys } from '../../../api/keys';
import { readStorage, removeStorage } from '../../../lib/storage';
import {
  type AwaitedPopup,
  callbackUrlFor,
  matchPopupResult,
  POPUP_RESULT_KEY,
  POPUP_WINDOW_NAME,
  type PopupResult,
  popupFeatures,
} from '../../callback/popupResult';

const CLOSED_CHECK_MS = 500;

/**
 * Connecting through the network's OAuth popup from the add-account screen: opens the popup at once (a
 * window opened after an await is blocked), sends it to the network's address from
 * GET /v1/{provider}/auth/start, then waits for the callback page's result in local storage (docs/product/entities.md
 * "Popup result"). A blocked popup falls back to leaving for the network in this tab; the callback
 * page then finishes there.
 */
export function usePopupConnect(opts: {
  provider: ProviderId;
  userId: number | null;
  onResult: (result: PopupResult) => void;
  onStartError: (error: unknown) => void;
}) {
  const queryClient = useQueryClient();
  const [awaited, setAwaited] = useState<AwaitedPopup | null>(null);
  const [starting, setStarting] = useState(false);
  const popupRef = useRef<Window | null>(null);
  const handlers = useRef(opts);
  handlers.current = opts;

  useEffect(() => {
    if (!awaited) return;
    let done = false;
    const finish = (result: PopupResult | null) => {
      if (done) return;
      done = true;
      setAwaited(null);
      if (!result) return; // closed without an answer: the user gave up
      removeStorage(POPUP_RESULT_KEY);
      if (result.status === 'success') {
        for (const queryKey of [queryKeys.objects, queryKeys.accountErrors, queryKeys.counts, ['accounts']])
          void queryClient.invalidateQueries({ queryKey });
      }
      handlers.current.onResult(result);
    };
    const onStorage = (event: StorageEvent) => {
      const result = matchPopupResult(event.key, event.newValue, awaited);
      if (result) finish(result);
    };
    window.addEventListener('storage', onStorage);
    // The popup may close before this window hears the storage event: read the stored value then.
    const timer = window.setInterval(() => {
      const stored = matchPopupResult(POPUP_RESULT_KEY, readStorage(POPUP_RESULT_KEY), awaited);
      if (stored) finish(stored);
      else if (popupRef.current?.closed) finish(null);
    }, CLOSED_CHECK_MS);
    return () => {
      done = true;
      window.removeEventListener('storage', onStorage);
      window.clearInterval(timer);
    };
  }, [awaited, queryClient]);

  /** Call from the click itself (the popup must open within the user's gesture). */
  const start = async (query: {
    spaceId?: number;
    callbackParams?: Record<string, string>;
    /** Which way of signing in, for networks with more than one (Instagram). */
    login?: string;
  }) => {
    const since = Date.now();
    const popup = window.open(
      '',
      POPUP_WINDOW_NAME,
      popupFeatures({
        width: window.screen.availWidth || window.outerWidth,
        height: window.screen.availHeight || window.outerHeight,
        left: window.screenX,
        top: window.screenY,
      }),
    );
    popupRef.current = popup;
    setStarting(true);
    try {
      const { url } = await startAccountOAuth(opts.provider, {
        redirect_uri: callbackUrlFor(window.location.origin, opts.provider, query.callbackParams),
        space_id: query.spaceId,
        ...(query.login ? { login: query.login } : {}),
      });
      if (popup && !popup.closed) {
        popup.location.href = url;
        popup.focus();
        setAwaited({ source: opts.provider, since, user: opts.userId });
      } else {
        window.location.assign(url);
      }
    } catch (error) {
      popup?.close();
      handlers.current.onStartError(error);
    } finally {
      setStarting(false);
    }
  };

  return { start, starting, waiting: awaited !== null };
}
