// Facebook phase of `npm run bench -- ingest` (issue 19): Pages connected through the app's API and the
// emulator's OAuth dialog (one Page per dialog), then Messenger messages posted to the app-wide webhook
// `/v1/webhooks/facebook/app`, each signed with the app secret (X-Hub-Signature-256) as Meta signs it —
// the load itself comes from webhook-load.mjs (kind 'facebook').
import { FacebookEmulator } from '../apps/server/emulators/facebook/emulator';

const VERIFY = 'bench-fb-verify';

export async function startFacebookBench() {
  const emu = await FacebookEmulator.start();
  emu.consent = 'allow';
  return { emu, env: emu.env(VERIFY) };
}

let pages = 0;

/** One Page made in the emulator and connected through the OAuth dialog; its account id and Page id. */
export async function connectFacebookPage(opts: {
  emu: FacebookEmulator;
  base: string;
  auth: Record<string, string>;
  appUrl: string;
  name: string;
  /** Accounts made here, for the caller to remove. */
  created: number[];
}): Promise<{ id: number; pageId: string }> {
  pages += 1;
  const page = opts.emu.network.addPage({
    id: `77${pages}${Date.now().toString().slice(-9)}`,
    name: opts.name,
  });
  opts.emu.network.userPages = [page.id];
  const redirectUri = `${opts.appUrl}/callback/facebook`;
  const start = await fetch(
    `${opts.base}/v1/facebook/auth/start?redirect_uri=${encodeURIComponent(redirectUri)}`,
    { headers: opts.auth },
  );
  if (!start.ok) throw new Error(`facebook auth/start failed: ${start.status} ${await start.text()}`);
  const dialog = await fetch((await start.json()).url as string, { redirect: 'manual' });
  const back = Object.fromEntries(new URL(dialog.headers.get('location')!).searchParams);
  const connected = await fetch(`${opts.base}/v1/facebook/auth`, {
    method: 'POST',
    headers: { ...opts.auth, 'content-type': 'application/json' },
    body: JSON.stringify({ ...back, redirect_uri: redirectUri }),
  });
  if (!connected.ok)
    throw new Error(`facebook connect failed: ${connected.status} ${await connected.text()}`);
  const id = ((await connected.json()) as { object: { id: number } }).object.id;
  opts.created.push(id);
  return { id, pageId: page.id };
}
