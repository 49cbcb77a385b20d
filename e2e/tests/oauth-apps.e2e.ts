// Issue 14 item 8, third-party apps: an administrator registers an OAuth2 client on /oauth (the secret
// shown once), the test plays the third-party app — a local HTTP server on 127.0.0.1 is its redirect
// target — the user approves on the consent screen, the app exchanges the code with its PKCE verifier
// (HTTP Basic client authentication) and calls the API with the token; the user revokes the app on
// /oauth and the token stops working. Deny and an unregistered redirect URI are checked too. The
// screens are shot in ru and en at 375 and 1381 px.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type AppHandle,
  apiOk,
  apiRequest,
  type BrowserHandle,
  type ConfirmedUser,
  createConfirmedUser,
  launchBrowser,
  type SmtpHandle,
  screenshot,
  signedInContext,
  startApp,
  startSmtp,
} from '../harness';

/** Latin-only words of a Russian text once addresses, the product name and upper-case codes are out. */
function latinWords(text: string): string[] {
  const rest = text
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/\bapp_[\w-]+/g, ' ')
    .replace(/Otklik|English/g, ' ');
  return [...rest.matchAll(/[A-Za-z][A-Za-z'’]*/g)]
    .map((m) => m[0])
    .filter((w) => w.length > 1 && !/^[A-Z0-9]{2,6}$/.test(w));
}

/** The third-party app's redirect endpoint: records every query it receives. */
async function startThirdPartyApp() {
  const received: URLSearchParams[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/callback') received.push(url.searchParams);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>CRM</title><p id="done">CRM received the answer</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    redirectUri: `http://127.0.0.1:${port}/callback`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

describe('third-party apps (OAuth2 authorization code + PKCE)', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let owner: ConfirmedUser;
  let thirdParty: Awaited<ReturnType<typeof startThirdPartyApp>>;
  let spaceId: number;
  let client: { id: string; secret: string };

  const consentPath = (challenge: string, redirectUri = thirdParty.redirectUri, state = 'st-42') =>
    `/oauth?${new URLSearchParams({
      response_type: 'code',
      client_id: client.id,
      redirect_uri: redirectUri,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state,
    })}`;

  const setLocale = (locale: 'ru' | 'en') =>
    apiOk(app.url, 'PUT', '/v1/me', { token: owner.tokens.access_token, body: { locale } });

  async function ownerPage(locale: 'ru' | 'en', width = 1381): Promise<Page> {
    const context = await signedInContext(browser, owner.tokens, {
      baseURL: app.url,
      locale: locale === 'ru' ? 'ru-RU' : 'en-US',
      viewport: { width, height: width < 600 ? 812 : 900 },
    });
    return context.newPage();
  }

  beforeAll(async () => {
    smtp = await startSmtp();
    [app, browser, thirdParty] = await Promise.all([
      startApp({ smtp, env: { AUTH_RATE_LIMIT_PER_IP: '1000' } }),
      launchBrowser(),
      startThirdPartyApp(),
    ]);
    owner = await createConfirmedUser(app.url, smtp, { name: 'Ольга Админ', company: 'Кофейня' });
    const config = await apiOk<{ spaces: { id: number }[] }>(app.url, 'GET', '/v1/config', {
      token: owner.tokens.access_token,
    });
    spaceId = config.spaces[0]!.id;
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await smtp?.close();
    await thirdParty?.close();
  });

  test('admin registers an app; the user allows it; the app gets tokens and calls the API; revoking ends them', async () => {
    await setLocale('ru');
    const page = await ownerPage('ru');
    await page.goto('/oauth');
    await page.getByTestId('oauth-apps-empty').waitFor({ timeout: 20_000 });
    await page.getByTestId('oauth-grants-empty').waitFor();
    expect(latinWords(await page.locator('body').innerText())).toEqual([]);
    await screenshot(page, 'oauth-apps-empty-ru-1381');

    // Register: a validation error first, then a name and the loopback redirect URI.
    await page.getByTestId('oauth-app-add').click();
    await page.getByTestId('oauth-app-submit').click();
    await page.getByText('Укажите название приложения').waitFor();
    await page.getByTestId('oauth-app-name').fill('CRM «Север»');
    const uris = page.getByTestId('oauth-app-redirects');
    await uris.fill('http://crm.example/cb');
    await uris.press('Enter');
    await page.getByTestId('oauth-app-submit').click();
    await page.getByText('Адрес возврата: защищённый').waitFor();
    // Remove the refused address (Backspace on the empty input drops the last one) and add the good one.
    await uris.press('Backspace');
    await uris.fill(thirdParty.redirectUri);
    await uris.press('Enter');
    await screenshot(page, 'oauth-app-form-ru-1381');
    await page.getByTestId('oauth-app-submit').click();

    // The secret, once.
    const dialog = page.getByTestId('oauth-secret-dialog');
    await dialog.waitFor();
    client = {
      id: (await page.getByTestId('oauth-secret-client-id').innerText()).trim(),
      secret: (await page.getByTestId('oauth-secret-value').innerText()).trim(),
    };
    expect(client.id).toMatch(/^app_/);
    expect(client.secret.length).toBeGreaterThan(30);
    await screenshot(page, 'oauth-app-secret-ru-1381');
    await page.getByTestId('oauth-secret-done').click();
    await page.getByTestId('oauth-app').filter({ hasText: 'CRM «Север»' }).waitFor();
    // The list never shows the secret again.
    expect(await page.locator('body').innerText()).not.toContain(client.secret);

    // The app sends the user to the consent screen; they allow.
    const { verifier, challenge } = pkce();
    await page.goto(consentPath(challenge));
    await page.getByTestId('consent').waitFor({ timeout: 20_000 });
    const consentText = await page.getByTestId('consent').innerText();
    expect(consentText).toContain('CRM «Север»');
    expect(consentText).toContain('Кофейня');
    await screenshot(page, 'oauth-consent-ru-1381');
    await page.getByTestId('consent-allow').click();
    await page.waitForURL((url) => url.href.startsWith(thirdParty.redirectUri), { timeout: 20_000 });
    const answer = thirdParty.received.at(-1)!;
    expect(answer.get('state')).toBe('st-42');
    const code = answer.get('code')!;
    expect(code).toBeTruthy();

    // The app exchanges the code (Basic client authentication, form body), then calls the API.
    const exchange = await fetch(`${app.url}/v1/oauth2/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`,
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: thirdParty.redirectUri,
        code_verifier: verifier,
      }),
    });
    expect(exchange.status).toBe(200);
    const tokens = (await exchange.json()) as { access_token: string; refresh_token: string };
    const asApp = await apiRequest<{ spaces: { id: number }[]; user: { name: string } }>(
      app.url,
      'GET',
      '/v1/config',
      { token: tokens.access_token },
    );
    expect(asApp.status).toBe(200);
    expect(asApp.body.spaces.map((s) => s.id)).toEqual([spaceId]);
    expect(asApp.body.user.name).toBe('Ольга Админ');

    // The management screen now shows one user of the app and the grant under "apps you allowed".
    await page.goto('/oauth');
    const grant = page.getByTestId('oauth-grant').filter({ hasText: 'CRM «Север»' });
    await grant.waitFor({ timeout: 20_000 });
    await page.getByTestId('oauth-app').filter({ hasText: '1 пользователь' }).waitFor();
    expect(latinWords(await page.locator('body').innerText())).toEqual([]);
    await screenshot(page, 'oauth-apps-ru-1381');

    // The user revokes: the app's token fails at once.
    await grant.getByTestId('oauth-grant-revoke').click();
    await page.getByTestId('confirm-action').click();
    await page.getByTestId('oauth-grants-empty').waitFor();
    const after = await apiRequest(app.url, 'GET', '/v1/config', { token: tokens.access_token });
    expect(after.status).toBe(401);
    const refresh = await fetch(`${app.url}/v1/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: client.id,
        client_secret: client.secret,
        refresh_token: tokens.refresh_token,
      }),
    });
    expect(refresh.status).toBe(400);
    expect(((await refresh.json()) as { error: string }).error).toBe('invalid_grant');
    await page.context().close();
  });

  test('deny sends access_denied back; an unregistered redirect URI is an error page and goes nowhere', async () => {
    const page = await ownerPage('ru');
    const before = thirdParty.received.length;
    await page.goto(consentPath(pkce().challenge, thirdParty.redirectUri, 'st-deny'));
    await page.getByTestId('consent-deny').click();
    await page.waitForURL((url) => url.href.startsWith(thirdParty.redirectUri), { timeout: 20_000 });
    const denied = thirdParty.received.at(-1)!;
    expect(denied.get('error')).toBe('access_denied');
    expect(denied.get('state')).toBe('st-deny');
    expect(denied.get('code')).toBeNull();

    const count = thirdParty.received.length;
    expect(count).toBe(before + 1);
    await page.goto(consentPath(pkce().challenge, 'https://evil.example/steal'));
    await page.getByTestId('consent-error').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('consent-error').innerText()).toContain('не зарегистрирован');
    expect(page.url()).toContain('/oauth?');
    await screenshot(page, 'oauth-consent-error-ru-1381');
    await page.context().close();
  });

  test('the screens in ru and en at 375 and 1381', async () => {
    for (const locale of ['ru', 'en'] as const) {
      await setLocale(locale);
      for (const width of [375, 1381]) {
        const page = await ownerPage(locale, width);
        await page.goto('/oauth');
        await page.getByTestId('oauth-app').first().waitFor({ timeout: 20_000 });
        await page
          .getByText(locale === 'ru' ? 'Сторонние приложения' : 'Third-party apps')
          .first()
          .waitFor();
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow, `${locale} ${width}: horizontal scroll`).toBeLessThanOrEqual(0);
        await screenshot(page, `oauth-apps-${locale}-${width}`);
        await page.goto(consentPath(pkce().challenge));
        await page.getByTestId('consent').waitFor({ timeout: 20_000 });
        await page.getByText(locale === 'ru' ? 'Разрешить доступ?' : 'Allow access?').waitFor();
        await screenshot(page, `oauth-consent-${locale}-${width}`);
        await page.context().close();
      }
    }
    // Eight page loads: on a shared CI machine this takes longer than one flow.
  }, 360_000);
});
