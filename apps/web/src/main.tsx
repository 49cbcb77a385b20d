import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { disableSchemaCodegen } from '@otklik/shared';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { initI18n } from './i18n';

disableSchemaCodegen(); // before any schema parses: the page's CSP forbids eval
initI18n();

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
