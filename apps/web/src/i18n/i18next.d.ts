import 'i18next';
import type { ru } from './ru';
import type { SettingsResources, ShellResources } from './shell.ru';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    // The shell and settings strings load with the signed-in shell (registerShellResources).
    resources: { translation: typeof ru & { shell: ShellResources; settings: SettingsResources } };
  }
}
