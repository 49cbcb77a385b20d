import { describe, expect, it } from 'vitest';
import { testConfig } from '../../../lib/config';
import { Sealer } from '../../../lib/crypto';
import { createState, isAppRedirectUri, isValidState, STATE_TTL_S, type StateClaims } from './state';

const sealer = new Sealer('state-test-secret-0123456789abcdef0123');
const claims: StateClaims = { provider: 'vk', redirectUri: 'http://127.0.0.1:3000/login/vk', mode: 'login' };

describe('OAuth state', () => {
  it('is valid for its own claims until it expires', () => {
    const now = Date.now();
    const state = createState(sealer, claims, now);
    expect(isValidState(sealer, state, claims, now + (STATE_TTL_S - 1) * 1000)).toBe(true);
    expect(isValidState(sealer, state, claims, now + (STATE_TTL_S + 1) * 1000)).toBe(false);
  });

  it('binds provider, redirect_uri and mode, and is unique', () => {
    const state = createState(sealer, claims);
    expect(isValidState(sealer, state, { ...claims, provider: 'yandex' })).toBe(false);
    expect(isValidState(sealer, state, { ...claims, redirectUri: 'http://127.0.0.1:3000/login/x' })).toBe(
      false,
    );
    expect(isValidState(sealer, state, { ...claims, mode: 'link' })).toBe(false);
    expect(createState(sealer, claims)).not.toBe(state);
  });

  it('is refused when forged or sealed with another key', () => {
    expect(isValidState(sealer, 'garbage', claims)).toBe(false);
    expect(
      isValidState(sealer, createState(new Sealer('another-secret-0123456789abcdef0123'), claims), claims),
    ).toBe(false);
  });
});

describe('redirect_uri check', () => {
  const config = testConfig({ APP_URL: 'https://app.otklik.test/' });
  it.each([
    ['https://app.otklik.test/login/vk', true],
    ['https://app.otklik.test:443/login/vk?x=1', true],
    ['http://app.otklik.test/login/vk', false],
    ['https://app.otklik.test.evil.example/login/vk', false],
    ['https://user:pass@app.otklik.test/login/vk', false],
    ['//app.otklik.test/login/vk', false],
    ['/login/vk', false],
  ])('%s → %s', (uri, ok) => {
    expect(isAppRedirectUri(config, uri)).toBe(ok);
  });
});
