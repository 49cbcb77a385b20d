// Debian's Chromium driven by playwright-core (no browser download). Flags keep it off the network:
// this machine's closed network refuses Chromium's background connections.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { screensDir } from './paths';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export interface ContextOptions {
  /** Browser locale, e.g. 'en-US' (default) or 'ru-RU'; sets navigator.language and Accept-Language. */
  locale?: string;
  viewport?: { width: number; height: number };
  /** Lets page.goto('/login') resolve against the app, e.g. app.url. */
  baseURL?: string;
  timezoneId?: string;
  /** Default for waits and actions; fails fast instead of running into the test timeout. */
  timeoutMs?: number;
}

export interface BrowserHandle {
  browser: Browser;
  newContext(options?: ContextOptions): Promise<BrowserContext>;
  /** A page in a fresh context (its own cookies and storage). */
  newPage(options?: ContextOptions): Promise<Page>;
  close(): Promise<void>;
}

/** The browsers this test process has open: a failed test's pages are photographed from them (failureShots). */
const openBrowsers = new Set<Browser>();

export async function launchBrowser(): Promise<BrowserHandle> {
  if (!existsSync(chromiumPath)) {
    throw new Error(`No Chromium at ${chromiumPath}: apt-get install chromium, or set CHROMIUM_PATH.`);
  }
  const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs });
  openBrowsers.add(browser);
  browser.on('disconnected', () => openBrowsers.delete(browser));

  const newContext = async (options: ContextOptions = {}) => {
    const context = await browser.newContext({
      locale: options.locale ?? 'en-US',
      viewport: options.viewport ?? { width: 1280, height: 800 },
      baseURL: options.baseURL,
      timezoneId: options.timezoneId,
    });
    context.setDefaultTimeout(options.timeoutMs ?? 15_000);
    return context;
  };

  return {
    browser,
    newContext,
    async newPage(options) {
      const context = await newContext(options);
      return context.newPage();
    },
    close: () => browser.close(),
  };
}

/** Chromium refuses captures taller than 16,384 px. */
const SCREENSHOT_MAX_HEIGHT = 16_384;

/** Saves a full-page PNG to test-results/screens/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(screensDir, { recursive: true });
  const path = join(screensDir, `${name.replace(/[^\w.-]+/g, '_')}.png`);
  // Not the start's splash: it lies over the page for its first 0.4 s, the page already there beneath it.
  await page.getByTestId('splash').first().waitFor({ state: 'detached' });
  // The whole page, at the viewport's own width. Playwright's fullPage capture lays the page out at the
  // document's width for a moment (1366 px in a 1381 px window with a scrollbar): media queries flip, the
  // split view unmounts its list and a selection made in it is gone. A taller viewport keeps the width.
  const viewport = page.viewportSize();
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  if (!viewport || height <= viewport.height) {
    await page.screenshot({ path });
    return path;
  }
  await page.setViewportSize({ width: viewport.width, height: Math.min(height, SCREENSHOT_MAX_HEIGHT) });
  try {
    await page.screenshot({ path });
  } finally {
    await page.setViewportSize(viewport);
  }
  return path;
}

/**
 * A context already signed in with `tokens`, as after a login: the web app keeps them in localStorage
 * under 'otklik.token' (set before any page script runs, and left alone once the app refreshes them).
 */
export async function signedInContext(
  handle: BrowserHandle,
  tokens: unknown,
  options: ContextOptions = {},
): Promise<BrowserContext> {
  const context = await handle.newContext(options);
  await context.addInitScript((token) => {
    if (!window.localStorage.getItem('otklik.token'))
      window.localStorage.setItem('otklik.token', JSON.stringify(token));
  }, tokens);
  return context;
}

/**
 * After a failed test (worker-env.ts): a screenshot of every page still open in this process, as it is
 * at that moment, to test-results/screens/failed-<test>-<n>.png, and each page's address on stderr — so a
 * failure seen once in a CI log (a flaky first try) shows what the page showed. Pages a test closed
 * itself are gone; a page that cannot be photographed is named and passed over.
 */
export async function failureShots(testName: string): Promise<void> {
  const pages = [...openBrowsers].flatMap((browser) =>
    browser.contexts().flatMap((context) => context.pages()),
  );
  mkdirSync(screensDir, { recursive: true });
  const base = `failed-${testName}`.replace(/[^\w.-]+/g, '_').slice(0, 120);
  for (const [n, page] of pages.entries()) {
    const path = join(screensDir, `${base}-${n + 1}.png`);
    try {
      await page.screenshot({ path, timeout: 10_000 });
      console.error(`failed test "${testName}": page ${n + 1} at ${page.url()} → ${path}`);
    } catch (error) {
      console.error(
        `failed test "${testName}": page ${n + 1} at ${page.url()} not photographed: ${String(error)}`,
      );
    }
  }
}
