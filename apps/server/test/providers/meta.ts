import { afterAll, beforeAll, expect } from 'vitest';
import type { FacebookEmulator } from '../../emulators/facebook/emulator';
import { ProviderTestbed } from './testbed';

// TEST-ONLY: the Meta networks' testbed (Facebook Pages, Instagram): the emulator with consent given, the
// app listening, the Meta app's one callback subscribed (handshake with the verify token), and the
// Facebook dialog asked for the network's scope.

export const META_VERIFY = 'fb-verify-token';

export function metaTestbed<E extends FacebookEmulator>(
  provider: 'facebook' | 'instagram',
  start: () => Promise<E>,
  opts: { scope: string; started: (emu: E) => void },
) {
  let emu: E | undefined;
  const bed = new ProviderTestbed({
    provider,
    listen: true,
    env: () => ({ PROVIDER_UPDATES: 'webhook', ...emu!.env(META_VERIFY) }),
  });
  beforeAll(async () => {
    const started = await start();
    emu = started;
    opts.started(started);
    started.consent = 'allow';
    bed.onClose(() => started.close());
    await bed.start();
    // The app's callback saved in Meta's dashboard (Instagram deliveries come to it too).
    expect((await started.subscribe(`${bed.base}/v1/webhooks/facebook/app`, META_VERIFY)).verified).toBe(
      true,
    );
  });
  afterAll(() => bed.close());
  /** The Facebook dialog, asked for the network's scope. */
  const popup = () => bed.popup((dialog) => expect(dialog.searchParams.get('scope')).toContain(opts.scope));
  const post = (url: string, payload: Record<string, unknown> = {}) => bed.inject('POST', url, payload);
  return { bed, popup, post };
}
