// Issue 19 (Threads, Google Business Profile): each connects through its popup on settings/accounts/add
// against its emulator on 127.0.0.1 (/callback/threads, /callback/gmaps finish the connect); a refusal
// on the network's page shows the reason in the form.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { GmapsEmulator } from '../../apps/server/emulators/gmaps/emulator';
import { ThreadsEmulator } from '../../apps/server/emulators/threads/emulator';
import {
  type AppHandle,
  type BrowserHandle,
  createConfirmedUser,
  launchBrowser,
  type SmtpHandle,
  screenshot,
  signedInContext,
  startApp,
  startSmtp,
  waitForPath,
} from '../harness';

const DESKTOP = { width: 1381, height: 900 };

async function connectByPopup(page: Page, provider: string) {
  await page.goto('/settings/accounts/add');
  await page.getByTestId('providers-ready').getByTestId(`provider-${provider}`).waitFor();
  await page.getByTestId(`connect-${provider}`).click();
  const form = page.locator(`[data-testid="connect-form"][data-provider="${provider}"]`);
  const opened = page.waitForEvent('popup');
  await form.getByTestId('connect-oauth').click();
  await (await opened).waitForEvent('close', { timeout: 20_000 });
  return form;
}

describe('connectors: Threads and Google Business Profile through the UI', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let threads: ThreadsEmulator;
  let gmaps: GmapsEmulator;

  beforeAll(async () => {
    [smtp, threads, gmaps, browser] = await Promise.all([
      startSmtp(),
      ThreadsEmulator.start(),
      GmapsEmulator.start(),
      launchBrowser(),
    ]);
    threads.apps.set('1234567890', 'threads-secret');
    gmaps.google.addClient('gbp.apps.googleusercontent.com', 'GOCSPX-gbp');
    app = await startApp({
      smtp,
      env: {
        AUTH_RATE_LIMIT_PER_IP: '1000',
        ...threads.env,
        THREADS_APP_ID: '1234567890',
        THREADS_APP_SECRET: 'threads-secret',
        ...gmaps.env,
        GMAPS_CLIENT_ID: 'gbp.apps.googleusercontent.com',
        GMAPS_CLIENT_SECRET: 'GOCSPX-gbp',
      },
    });
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await Promise.all([threads?.close(), gmaps?.close(), smtp?.close()]);
  });

  test('Threads: refused, then connected with its replies imported', async () => {
    const profile = threads.addProfile('masterskaya');
    const post = threads.addMedia({ owner: profile, text: 'Новая коллекция' });
    threads.addMedia({ owner: profile, replyTo: post.id, username: 'anna', text: 'Где купить?' });
    const { tokens } = await createConfirmedUser(app.url, smtp, {
      name: 'Ира Оператор',
      company: 'Мастерская',
      locale: 'ru',
    });
    const context = await signedInContext(browser, tokens, {
      baseURL: app.url,
      locale: 'ru-RU',
      viewport: DESKTOP,
    });
    try {
      const page = await context.newPage();
      threads.consenting = null;
      const form = await connectByPopup(page, 'threads');
      await form.getByTestId('connect-error').waitFor();
      threads.consenting = profile;
      await connectByPopup(page, 'threads');
      await waitForPath(page, '/settings/accounts/add/success');
      await page.getByTestId('connect-success').getByText(profile.name).first().waitFor();
      await screenshot(page, 'connectors-threads-success-ru-1381');
    } finally {
      await context.close();
    }
  });

  test('Google Business Profile: every location of the Google user is connected', async () => {
    const owner = gmaps.addOwner('Владелец', ['Кофейня на Ленина', 'Кофейня на Мира']);
    gmaps.addReview(owner.locations[0]!.full, { text: 'Вкусно', stars: 'FIVE' });
    gmaps.google.consenting = owner.user;
    const { tokens } = await createConfirmedUser(app.url, smtp, {
      name: 'Ira Operator',
      company: 'Coffee',
      locale: 'en',
    });
    const context = await signedInContext(browser, tokens, {
      baseURL: app.url,
      locale: 'en-US',
      viewport: DESKTOP,
    });
    try {
      const page = await context.newPage();
      await connectByPopup(page, 'gmaps');
      await waitForPath(page, '/settings/accounts/add/success');
      await page.getByTestId('connect-success').getByText('Кофейня на Ленина').first().waitFor();
      await screenshot(page, 'connectors-gmaps-success-en-1381');
    } finally {
      await context.close();
    }
  });
});
