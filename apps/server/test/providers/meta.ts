import { afterAll, beforeAll, expect } from 'vitest';
import type { FacebookEmulator } from '../../emulators/facebook/emulator';
import { ProviderTestbed } from './testbed';

// TEST-ONLY: the Meta networks' testbed (Facebook Pages, Instagram): the emulator with consent given, the
// app listening, the Meta app's one callback subscribed (handshake with the verify token), and the
// Facebook dialog asked for the network's scope.

export const META_VERIFY = 'fb-verify-token';

export class MetaTestbed<E extends FacebookEmulator> extends ProviderTestbed {
  emu!: E;

  constructor(
    provider: 'facebook' | 'instagram',
    private readonly startEmulator: () => Promise<E>,
    private readonly scope: string,
  ) {
    super({
      provider,
      listen: true,
      env: () => ({ PROVIDER_UPDATES: 'webhook', ...this.emu.env(META_VERIFY) }),
    });
  }

  override async start() {
    const emu = await this.startEmulator();
    this.emu = emu;
    emu.consent = 'allow';
    this.onClose(() => emu.close());
    await super.start();
    // The app's callback saved in Meta's dashboard (Instagram deliveries come to it too).
    expect((await emu.subscribe(`${this.base}/v1/webhooks/facebook/app`, META_VERIFY)).verified).toBe(true);
    return this;
  }

  /** The Facebook dialog, asked for the network's scope. */
  dialog() {
    return this.popup((dialog) => expect(dialog.searchParams.get('scope')).toContain(this.scope));
  }
}

/** The same testbed started and closed by the test file's hooks. */
export function metaTestbed<E extends FacebookEmulator>(
  provider: 'facebook' | 'instagram',
  start: () => Promise<E>,
  opts: { scope: string; started: (emu: E) => void },
) {
  const bed = new MetaTestbed(
    provider,
    async () => {
      const emu = await start();
      opts.started(emu);
      return emu;
    },
    opts.scope,
  );
  beforeAll(async () => {
    await bed.start();
  });
  afterAll(() => bed.close());
  const popup = () => bed.dialog();
  const post = (url: string, payload: Record<string, unknown> = {}) => bed.inject('POST', url, payload);
  return { bed, popup, post };
}
