import { expect } from 'vitest';
import { UseResponseEmulator } from '../../../emulators/useresponse/emulator';
import { forumSuite } from '../../../test/forum-suite';

// UseResponse against its emulator (issue 20): the shared forum checks, with UseResponse's own calls
// (`/api/4.0/comments/create.json?apiKey=…`, body `{object_id, content}`).

forumSuite({
  provider: 'useresponse',
  start: () => UseResponseEmulator.start(),
  env: (emu) => emu.env,
  credentials: (site, key) => ({ site, api_key: key }),
  site: (n) => `feedback${n}.example.com`,
  badSite: { field: 'site', value: '127.0.0.1' },
  refusedKey: /Invalid API key/,
  pollSeconds: 120,
  replyOf(call) {
    expect(call.path).toMatch(/\/api\/4\.0\/comments\/create\.json$/);
    expect(call.query.apiKey).toBeTruthy();
    return { topicId: String(call.body?.object_id), text: String(call.body?.content) };
  },
});
