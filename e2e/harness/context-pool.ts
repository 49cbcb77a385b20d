// Browser contexts a test closes are kept and handed to the next test that asks for the same kind (locale,
// time zone, base URL), with their first page. A page that opens in a new context starts a new renderer
// process and compiles the web app from nothing: about 1.8 s of CPU on this project's machines, against
// about 0.8 s for the same load in a page that has shown the app before (the same renderer, its caches
// warm; measured with the e2e harness on a quiet 2-core machine, six routes each way). A run asks for
// ~200 contexts, ~70 of them after a test closed one of the same kind.
//
// What a test leaves behind is removed before the next one gets the context: its other pages (popups),
// its init scripts (the sign-in token of signedInContext), routes, listeners, cookies, permissions, the
// kept page's viewport and timeouts, and the app origin's localStorage and sessionStorage (the kept page
// goes to the app's favicon, a document without scripts, clears both there, and stays on that origin).
// A context whose clock a test installed, or whose clean-up fails, is closed for real.
import type { Browser, BrowserContext, Disposable, Page } from 'playwright-core';

export interface PoolOptions {
  locale: string;
  viewport: { width: number; height: number };
  baseURL?: string;
  timezoneId?: string;
  timeoutMs: number;
}

interface Entry {
  key: string;
  context: BrowserContext;
  /** The page kept between tests (the context's first), once there is one. */
  kept: Page | null;
  /** The kept page is waiting for the next test's newPage(). */
  keptIdle: boolean;
  scripts: Disposable[];
  /**
   * Removes a listener a test added. Not removeAllListeners(): Playwright's own listeners on the same
   * objects must stay (without them, closing the context never resolves).
   */
  listeners: Array<() => void>;
  /** Something clean-up cannot undo was used (a fake clock). */
  dirty: boolean;
  closing: boolean;
  options: PoolOptions;
}

const CLOCK_SETTERS = [
  'install',
  'fastForward',
  'pauseAt',
  'resume',
  'runFor',
  'setFixedTime',
  'setSystemTime',
];
/** Idle contexts kept per browser; more are closed. */
const MAX_IDLE = 4;
/** Bound on one clean-up step: a server stopped by the test makes the favicon load fail fast. */
const RESET_TIMEOUT_MS = 5_000;

export interface ContextPool {
  newContext(options: PoolOptions): Promise<BrowserContext>;
  /** Contexts handed out, and how many of them were kept ones. */
  stats(): { handedOut: number; reused: number };
}

export function contextPool(browser: Browser): ContextPool {
  const idle: Entry[] = [];
  let handedOut = 0;
  let reused = 0;

  const keyOf = (o: PoolOptions) => JSON.stringify([o.locale, o.timezoneId ?? '', o.baseURL ?? '']);

  /** Wraps a new context so that close() returns it here and its init scripts can be taken back. */
  function track(context: BrowserContext, options: PoolOptions): Entry {
    const entry: Entry = {
      key: keyOf(options),
      context,
      kept: null,
      keptIdle: false,
      scripts: [],
      listeners: [],
      dirty: false,
      closing: false,
      options,
    };
    trackListeners(entry, context);
    const realClose = context.close.bind(context);
    const realNewPage = context.newPage.bind(context);
    const realAddInitScript = context.addInitScript.bind(context) as BrowserContext['addInitScript'];
    // Pages share their context's clock: a test that sets it leaves a fake time no clean-up can take back.
    const clock = context.clock as unknown as Record<string, unknown>;
    for (const name of CLOCK_SETTERS) {
      const real = clock[name];
      if (typeof real !== 'function') continue;
      clock[name] = (...args: unknown[]) => {
        entry.dirty = true;
        return real.apply(clock, args);
      };
    }
    context.addInitScript = (async (...args: Parameters<BrowserContext['addInitScript']>) => {
      const disposable = await realAddInitScript(...args);
      entry.scripts.push(disposable);
      return disposable;
    }) as BrowserContext['addInitScript'];
    context.newPage = async () => {
      if (entry.kept && entry.keptIdle && !entry.kept.isClosed()) {
        entry.keptIdle = false;
        return entry.kept;
      }
      const page = await realNewPage();
      // A kept context was made for another test's window size: its new pages get this test's.
      await page.setViewportSize(entry.options.viewport);
      if (!entry.kept || entry.kept.isClosed()) {
        entry.kept = page;
        trackListeners(entry, page);
      }
      return page;
    };
    context.close = async (options?: { reason?: string }) => {
      if (entry.closing) return;
      entry.closing = true;
      if (await recycle(entry)) return;
      await realClose(options);
    };
    return entry;
  }

  /** Records the listeners tests add to `target`, to take them off before the next test. */
  function trackListeners(entry: Entry, target: BrowserContext | Page) {
    const emitter = target as unknown as Record<string, (event: string, fn: unknown) => unknown>;
    for (const method of ['on', 'once', 'addListener', 'prependListener', 'prependOnceListener']) {
      const real = emitter[method];
      if (typeof real !== 'function') continue;
      emitter[method] = function (this: unknown, event: string, fn: unknown) {
        entry.listeners.push(() => emitter.off?.call(target, event, fn));
        return real.call(target, event, fn);
      };
    }
  }

  /** Cleans the context for the next test and keeps it; false when it must be closed instead. */
  async function recycle(entry: Entry): Promise<boolean> {
    const { context, kept, options } = entry;
    if (entry.dirty || !kept || kept.isClosed() || !options.baseURL) return false;
    if (idle.length >= MAX_IDLE) return false;
    try {
      for (const page of context.pages()) if (page !== kept) await page.close();
      for (const forget of entry.listeners.splice(0)) forget();
      await kept.unrouteAll({ behavior: 'ignoreErrors' });
      await context.unrouteAll({ behavior: 'ignoreErrors' });
      for (const script of entry.scripts.splice(0)) await script.dispose();
      // Off the app (its socket closes, its timers stop), onto a script-free document of its origin.
      await kept.goto(new URL('/favicon.svg', options.baseURL).href, { timeout: RESET_TIMEOUT_MS });
      await kept.evaluate(() => {
        window.localStorage.clear();
        window.sessionStorage.clear();
      });
      // Then blank, where a new page starts.
      await kept.goto('about:blank', { timeout: RESET_TIMEOUT_MS });
      await context.clearCookies();
      await context.clearPermissions();
    } catch {
      // Not kept: the test's server is gone, or its page no longer answers. A new context replaces it.
      return false;
    }
    entry.keptIdle = true;
    entry.closing = false;
    idle.push(entry);
    return true;
  }

  return {
    async newContext(options) {
      handedOut += 1;
      const key = keyOf(options);
      const at = idle.findIndex((e) => e.key === key && e.kept !== null && !e.kept.isClosed());
      if (at >= 0) {
        const entry = idle.splice(at, 1)[0]!;
        reused += 1;
        entry.options = options;
        await entry.kept!.setViewportSize(options.viewport);
        entry.context.setDefaultTimeout(options.timeoutMs);
        entry.kept!.setDefaultTimeout(options.timeoutMs);
        return entry.context;
      }
      const context = await browser.newContext({
        locale: options.locale,
        viewport: options.viewport,
        baseURL: options.baseURL,
        timezoneId: options.timezoneId,
      });
      context.setDefaultTimeout(options.timeoutMs);
      track(context, options);
      return context;
    },
    stats: () => ({ handedOut, reused }),
  };
}
