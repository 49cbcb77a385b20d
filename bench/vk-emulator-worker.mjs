// Worker-thread entry for bench/vk-emulator-thread.ts: workers do not inherit tsx from `--import`, so
// this plain module registers it and loads the TypeScript one.
import { register } from 'tsx/esm/api';

register();
await import('./vk-emulator-thread.ts');
