import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { initI18n } from './i18n';
import { loadChunk } from './lib/lazyScreen';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
// Before the first render: the interface language's strings (no key ever shows untranslated), and zod's
// code generation turned off before any schema parses (the page's CSP forbids eval). Both are small
// requests made at once; zod itself stays out of the first download.
// A chunk that fails to load reloads the page once (lazyScreen.ts); failing again, the app still starts.
void Promise.all([
  initI18n(),
  loadChunk(() => import('@otklik/shared/zod-config')).then((zod) => zod.disableSchemaCodegen()),
])
  .catch((error: unknown) => console.error(error))
  .then(() =>
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
