import { describe, expect, it } from 'vitest';
import { attemptAction } from './actions';

// A record page's action: the delay dialog closes only when the action went through.

describe('attemptAction', () => {
  it('answers true when the action went through, without an error shown', async () => {
    const shown: unknown[] = [];
    expect(
      await attemptAction(
        async () => 'ok',
        (e) => shown.push(e),
      ),
    ).toBe(true);
    expect(shown).toEqual([]);
  });

  it('shows a failure and answers false, so the dialog stays open', async () => {
    const shown: unknown[] = [];
    const failure = new Error('Укажите, до какого времени отложить');
    expect(
      await attemptAction(
        () => Promise.reject(failure),
        (e) => shown.push(e),
      ),
    ).toBe(false);
    expect(shown).toEqual([failure]);
  });
});
