// What a person sees, read the way assistive technology reads it: a field's error is the text its
// aria-describedby points to; the page title is document.title. Every wait is bounded.
import type { Locator, Page } from 'playwright-core';

/** Texts of the elements the field's aria-describedby names (its error and/or its description). */
export async function describedBy(field: Locator): Promise<string[]> {
  return field.evaluate((element) => {
    const ids = (element.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
    return ids.map((id) => document.getElementById(id)?.textContent?.trim() ?? '').filter(Boolean);
  });
}

/**
 * Waits until the field is described by an element reading exactly `message` (how a form shows the
 * field's validation error) and the field is marked invalid; throws with what the field says instead.
 */
export async function waitForFieldError(field: Locator, message: string, timeoutMs = 5_000): Promise<void> {
  await field.waitFor({ state: 'visible', timeout: timeoutMs });
  const handle = await field.elementHandle({ timeout: timeoutMs });
  try {
    await field.page().waitForFunction(
      ({ element, expected }) => {
        if (!element) return false;
        // Mantine marks a PasswordInput's inner input with data-invalid instead of aria-invalid.
        const invalid =
          element.getAttribute('aria-invalid') === 'true' || element.getAttribute('data-invalid') === 'true';
        const ids = (element.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
        const shown = ids
          .map((id) => document.getElementById(id))
          .some((node) => node?.textContent?.trim() === expected && node.offsetParent !== null);
        return invalid && shown;
      },
      { element: handle, expected: message },
      { timeout: timeoutMs, polling: 50 },
    );
  } catch (error) {
    const seen = await describedBy(field).catch(() => []);
    throw new Error(
      `Expected the field to show the error "${message}"; it is described by ${JSON.stringify(seen)}. (${(error as Error).message.split('\n')[0]})`,
    );
  } finally {
    await handle?.dispose();
  }
}

/** Waits until document.title is exactly `title`. */
export async function waitForTitle(page: Page, title: string, timeoutMs = 5_000): Promise<void> {
  try {
    await page.waitForFunction((expected) => document.title === expected, title, { timeout: timeoutMs });
  } catch {
    throw new Error(`Expected the page title "${title}", it is "${await page.title()}" (${page.url()})`);
  }
}

/** Waits until the page's path (and query, when `expected` has one) is `expected`, e.g. '/login?redirect=%2Fx'. */
export async function waitForPath(
  page: Page,
  expected: string | ((path: string) => boolean),
  timeoutMs = 15_000,
) {
  const matches = (url: URL) => {
    const path = `${url.pathname}${url.search}`;
    if (typeof expected === 'function') return expected(url.pathname);
    return expected.includes('?') ? path === expected : url.pathname === expected;
  };
  try {
    await page.waitForURL(matches, { timeout: timeoutMs, waitUntil: 'commit' });
  } catch {
    throw new Error(`Expected to be on ${String(expected)}, but the page is at ${page.url()}`);
  }
}

/**
 * The login form's fields, by what they are rather than by their (localized) labels, for set-up steps;
 * tests about the form itself use the labels.
 */
export function loginFields(page: Page) {
  return {
    email: page.locator('form[data-testid="login-form"] input[autocomplete="username"]'),
    password: page.locator('form[data-testid="login-form"] input[autocomplete="current-password"]'),
    submit: page.locator('form[data-testid="login-form"] button[type="submit"]'),
  };
}

/** Signs in on /login (already open) with email and password and waits for the signed-in shell. */
export async function signInThroughUi(page: Page, email: string, password: string): Promise<void> {
  const fields = loginFields(page);
  await fields.email.fill(email);
  await fields.password.fill(password);
  await fields.submit.click();
  await page.getByTestId('user-menu').waitFor({ state: 'visible' });
}

/** Logs out through the user menu and waits for /login. */
export async function logOutThroughUserMenu(page: Page): Promise<void> {
  await page.getByTestId('user-menu').click();
  await page.getByTestId('logout').click();
  await waitForPath(page, '/login');
  await loginFields(page).email.waitFor({ state: 'visible' });
}

/** The token the web app keeps in localStorage ('otklik.token'), or null. */
export async function storedAccessToken(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const raw = window.localStorage.getItem('otklik.token');
    if (!raw) return null;
    try {
      return (JSON.parse(raw) as { access_token?: string }).access_token ?? null;
    } catch {
      return null;
    }
  });
}

/**
 * Until the page's socket is open (`<html data-realtime="open">`, set by apps/web/src/realtime/useRealtime.ts
 * once the server said hello). A change made before then is shown too — the page reads its live data again
 * when the socket opens — but waiting makes a test check the push itself, not the catch-up.
 */
export async function waitForSocket(page: Page, timeoutMs = 45_000): Promise<void> {
  await page.locator('html[data-realtime="open"]').waitFor({ timeout: timeoutMs });
}
