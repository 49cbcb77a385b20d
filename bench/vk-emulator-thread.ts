// The VK emulator for bench/ingest.bench.ts, run in a worker thread (entry: vk-emulator-worker.mjs): the Callback API path asks VK for the
// authors' names (users.get) on every webhook, and that answer must not be computed on the event loop
// of the server being measured. Posts { env, communities: [{ groupId, token }] } once it listens.
import { parentPort, workerData } from 'node:worker_threads';
import { VkEmulator } from '../apps/server/emulators/vk/emulator';

const { communities } = workerData as { communities: number };
const emu = await VkEmulator.start({ echoDelayMs: 0 });
const list = Array.from({ length: communities }, (_, i) => {
  const groupId = 700_000_000 + Math.floor(Math.random() * 1_000_000) * 10 + i;
  const group = emu.addCommunity({
    id: groupId,
    name: `Bench community ${i}`,
    screenName: `bench${groupId}`,
  });
  return { groupId, token: group.token };
});
// The customers the load generator writes as (webhook-load.mjs: main chats and probe chats).
for (let i = 0; i < 1_000; i++)
  emu.addUser({ id: 100_000_000 + i, first_name: 'Bench', last_name: `Customer ${i}` });
// users.get is recorded like every call; keep the record from growing without bound during the run.
setInterval(() => emu.calls.splice(0), 1_000).unref();
parentPort!.postMessage({ env: emu.env(), communities: list });
