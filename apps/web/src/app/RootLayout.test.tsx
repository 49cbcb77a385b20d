import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createInstance } from 'i18next';
import { renderToString } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { RootLayout } from './RootLayout';

// The start's splash (0.4 s, SPEC) lies over the page while the page renders beneath it: the first render
// — before the splash's timer has run — holds both, so the route's code and first requests start at once
// instead of after the splash.
describe('RootLayout: the start splash', () => {
  it('renders the route beneath the splash from the first render, the splash laid over it', async () => {
    // A local instance: the app's own i18n module is process-wide state other files share.
    const i18n = createInstance();
    await i18n.init({ lng: 'en', resources: {}, showSupportNotice: false });
    const router = createMemoryRouter(
      [
        {
          element: <RootLayout />,
          children: [{ path: '/', element: <p data-testid="screen">the screen</p> }],
        },
      ],
      { initialEntries: ['/'] },
    );
    const html = renderToString(
      <I18nextProvider i18n={i18n}>
        <MantineProvider>
          <QueryClientProvider client={new QueryClient()}>
            <RouterProvider router={router} />
          </QueryClientProvider>
        </MantineProvider>
      </I18nextProvider>,
    );
    expect(html).toContain('data-testid="screen"');
    const splash = html.match(/<div[^>]*data-testid="splash"[^>]*>/)?.[0] ?? '';
    expect(splash).toMatch(/position:\s*fixed/);
    expect(splash).toMatch(/z-index:\s*10000/);
    // The screen comes first in the document and the splash after it, on top.
    expect(html.indexOf('data-testid="screen"')).toBeLessThan(html.indexOf('data-testid="splash"'));
  });
});
