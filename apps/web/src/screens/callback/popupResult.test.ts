import { describe, expect, it } from 'vitest';
import {
  callbackOutcome,
  callbackRedirectUri,
  callbackUrlFor,
  isPopupWindow,
  matchPopupResult,
  POPUP_RESULT_KEY,
  POPUP_WINDOW_NAME,
  type PopupResult,
  parsePopupResult,
  popupFeatures,
  providerOfCallbackPath,
  pulseCheckOf,
  serializePopupResult,
} from './popupResult';

const query = (text: string) => new URLSearchParams(text);

describe('the callback query (docs/product/errors.md provider callbacks)', () => {
  it('exchanges a code, with the state when there is one', () => {
    expect(callbackOutcome(query('code=abc&state=s1'))).toEqual({
      kind: 'exchange',
      code: 'abc',
      state: 's1',
    });
    expect(callbackOutcome(query('code=abc'))).toEqual({ kind: 'exchange', code: 'abc', state: undefined });
  });

  it("hands Pulse's signed check on as it is, unless Pulse refused", () => {
    expect(pulseCheckOf(query('check=eyJhIjoxfQ.ab12'))).toBe('eyJhIjoxfQ.ab12');
    expect(pulseCheckOf(query('error=access_denied&check=x'))).toBeNull();
    expect(pulseCheckOf(query('code=abc'))).toBeNull();
    expect(callbackOutcome(query('check=x'))).toEqual({
      kind: 'failure',
      message: { key: 'error.missingCode' },
    });
  });

  it('fails with "missing code" when there is neither a code nor an error', () => {
    expect(callbackOutcome(query(''))).toEqual({ kind: 'failure', message: { key: 'error.missingCode' } });
    expect(callbackOutcome(query('state=s1&code='))).toEqual({
      kind: 'failure',
      message: { key: 'error.missingCode' },
    });
  });

  it('reports a refusal as "access denied", even with a code beside it', () => {
    expect(callbackOutcome(query('error=access_denied&error_description=User+denied&state=x'))).toEqual({
      kind: 'failure',
      message: { key: 'error.accessDenied' },
    });
    expect(callbackOutcome(query('error=access_denied&code=abc'))).toEqual({
      kind: 'failure',
      message: { key: 'error.accessDenied' },
    });
  });

  it("shows another network error with the network's own description", () => {
    expect(callbackOutcome(query('error=invalid_scope&error_description=Bad+scope'))).toEqual({
      kind: 'failure',
      message: { text: 'Bad scope' },
    });
    expect(callbackOutcome(query('error=server_error'))).toEqual({
      kind: 'failure',
      message: { text: 'server_error' },
    });
  });
});

describe('the callback address', () => {
  it('is built with the extra parameters the network flow needs', () => {
    expect(callbackUrlFor('http://127.0.0.1:3000', 'vk', { group_id: '123' })).toBe(
      'http://127.0.0.1:3000/callback/vk?group_id=123',
    );
    expect(callbackUrlFor('https://app.example', 'ok')).toBe('https://app.example/callback/ok');
    expect(callbackUrlFor('https://app.example', 'vk', { group_id: '' })).toBe(
      'https://app.example/callback/vk',
    );
  });

  it('comes back exactly as it was sent: what the network added is dropped, ours is kept', () => {
    expect(
      callbackRedirectUri('http://127.0.0.1:3000/callback/vk?group_id=123&code=c0de&state=st4te#frag'),
    ).toBe('http://127.0.0.1:3000/callback/vk?group_id=123');
    expect(callbackRedirectUri('https://app.example/callback/ok?code=1&state=2')).toBe(
      'https://app.example/callback/ok',
    );
    expect(
      callbackRedirectUri(
        'https://app.example/callback/vk?error=access_denied&error_reason=user_denied&error_description=x&state=s',
      ),
    ).toBe('https://app.example/callback/vk');
    // round trip
    const sent = callbackUrlFor('https://app.example', 'vk', { group_id: '77' });
    expect(callbackRedirectUri(`${sent}&code=abc&state=def`)).toBe(sent);
  });

  it('names its provider', () => {
    expect(providerOfCallbackPath('/callback/vk')).toBe('vk');
    expect(providerOfCallbackPath('/callback/gmaps/')).toBe('gmaps');
    expect(providerOfCallbackPath('/callback/google')).toBe('gmaps');
    expect(providerOfCallbackPath('/settings/accounts')).toBeNull();
  });
});

describe('the popup result in local storage (docs/product/entities.md)', () => {
  const result: PopupResult = {
    status: 'success',
    user: 7,
    source: 'vk',
    error: null,
    at: 1_000,
  };
  const awaited = { source: 'vk', since: 900, user: 7 };

  it('round-trips, and rejects what is not a popup result', () => {
    expect(parsePopupResult(serializePopupResult(result))).toEqual({ ...result, account: undefined });
    expect(parsePopupResult(null)).toBeNull();
    expect(parsePopupResult('not json')).toBeNull();
    expect(parsePopupResult('{"status":"maybe","source":"vk","at":1}')).toBeNull();
    expect(parsePopupResult('{"status":"failure","at":1}')).toBeNull();
    expect(parsePopupResult('{"status":"failure","source":"vk","at":5,"error":"No"}')).toEqual({
      status: 'failure',
      user: null,
      source: 'vk',
      error: 'No',
      account: undefined,
      at: 5,
    });
  });

  it('is taken by the opener only when it is its own: key, provider, user and time', () => {
    const raw = serializePopupResult(result);
    expect(matchPopupResult(POPUP_RESULT_KEY, raw, awaited)).toMatchObject({ status: 'success' });
    expect(matchPopupResult('otklik.token', raw, awaited)).toBeNull();
    expect(matchPopupResult(POPUP_RESULT_KEY, null, awaited)).toBeNull(); // removed
    expect(matchPopupResult(POPUP_RESULT_KEY, raw, { ...awaited, source: 'ok' })).toBeNull();
    expect(matchPopupResult(POPUP_RESULT_KEY, raw, { ...awaited, since: 1_001 })).toBeNull(); // older attempt
    expect(matchPopupResult(POPUP_RESULT_KEY, raw, { ...awaited, user: 8 })).toBeNull();
    // An unknown user on either side does not block it.
    expect(matchPopupResult(POPUP_RESULT_KEY, raw, { ...awaited, user: null })).not.toBeNull();
    const anonymous = serializePopupResult({ ...result, user: null });
    expect(matchPopupResult(POPUP_RESULT_KEY, anonymous, awaited)).not.toBeNull();
  });

  it('knows a popup by its opener or by the name the add-account screen gives it', () => {
    expect(isPopupWindow({ opener: {}, name: '' })).toBe(true);
    expect(isPopupWindow({ opener: null, name: POPUP_WINDOW_NAME })).toBe(true);
    expect(isPopupWindow({ opener: null, name: '' })).toBe(false);
  });

  it('opens the popup centred and within the screen', () => {
    expect(popupFeatures({ width: 1440, height: 900, left: 0, top: 0 })).toBe(
      'popup=yes,width=640,height=720,left=400,top=90',
    );
    expect(popupFeatures({ width: 375, height: 667, left: 0, top: 0 })).toBe(
      'popup=yes,width=375,height=667,left=0,top=0',
    );
  });
});
