import { expect } from 'vitest';
import { UserEchoEmulator } from '../../../emulators/userecho/emulator';
import { forumSuite } from '../../../test/forum-suite';

// UserEcho against its emulator (issue 20): the shared forum checks, with UserEcho's own paths
// (`/api/v2/topics/{id}/comments.json?access_token=…`, body `{text}`).

forumSuite({
  provider: 'userecho',
  start: () => UserEchoEmulator.start(),
  env: (emu) => emu.env,
  credentials: (site, key) => ({ alias: `https://${site}.userecho.com/`, access_token: key }),
  site: (n) => `shop${n}`,
  badSite: { field: 'alias', value: 'shop.example.com' },
  refusedKey: /Invalid access token/,
  pollSeconds: 120,
  replyOf(call) {
    expect(call.query.access_token).toBeTruthy();
    return { topicId: /topics\/(\d+)\/comments\.json$/.exec(call.path)![1]!, text: String(call.body?.text) };
  },
});
