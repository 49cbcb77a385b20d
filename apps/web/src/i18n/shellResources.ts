import i18next from 'i18next';
import { settingsEn, shellEn } from './shell.en';
import { settingsRu, shellRu } from './shell.ru';

// The signed-in shell's strings are not part of the first load (login and signup do without them): the
// shell chunk adds them when it loads.

let registered = false;

export function registerShellResources() {
  if (registered) return;
  registered = true;
  i18next.addResourceBundle('ru', 'translation', { shell: shellRu, settings: settingsRu }, true, true);
  i18next.addResourceBundle('en', 'translation', { shell: shellEn, settings: settingsEn }, true, true);
}
