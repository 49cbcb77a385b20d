// Webhook load generator for bench/ingest.bench.ts, in a worker thread so building and sending requests
// does not share the event loop of the server it measures.
// workerData: { kind: 'telegram' | 'vk' | 'facebook', targets: { main: {url, secret, groupId?, pageId?}, probe: {...} },
//   requests, concurrency, maxMs, probeEvery, firstId, customers }
// Each request i is one network update with a distinct id (Telegram update_id / VK event_id and message
// id / a Messenger message's mid, signed with the app secret as Meta signs it: X-Hub-Signature-256). Every `probeEvery`-th request goes to the probe account with a chat of its own, and its start
// time (ms since the epoch, performance.timeOrigin-based) is reported so the main thread can match it
// with the moment that chat became visible in GET /v1/chats.
// Posts back { latencies, errors, firstError, elapsedMs, probes: [{chat, startedAt}] }.
import { createHmac } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { createClient } from './http-client.mjs';

const { kind, targets, requests, concurrency, maxMs, probeEvery, firstId, customers } = workerData;
const latencies = [];
const probes = [];
let errors = 0;
let firstError = null;
let next = 0;
const started = performance.now();
const client = createClient(concurrency);
const epoch = () => performance.timeOrigin + performance.now();

function telegramBody(id, chatId, text) {
  return JSON.stringify({
    update_id: id,
    message: {
      message_id: id,
      from: {
        id: chatId,
        is_bot: false,
        first_name: 'Bench',
        last_name: `Customer ${chatId}`,
        language_code: 'ru',
      },
      chat: { id: chatId, type: 'private', first_name: 'Bench' },
      date: Math.floor(Date.now() / 1000),
      text,
    },
  });
}

function vkBody(id, peerId, text, target) {
  return JSON.stringify({
    type: 'message_new',
    event_id: `bench${id.toString(16)}`,
    v: '5.199',
    group_id: target.groupId,
    secret: target.secret,
    object: {
      message: { id, date: Math.floor(Date.now() / 1000), peer_id: peerId, from_id: peerId, out: 0, text },
      client_info: { button_actions: ['text'], keyboard: true, inline_keyboard: true, lang_id: 0 },
    },
  });
}

function facebookBody(id, psid, text, target) {
  const at = Date.now();
  return JSON.stringify({
    object: 'page',
    entry: [
      {
        id: target.pageId,
        time: at,
        messaging: [
          {
            sender: { id: String(psid) },
            recipient: { id: target.pageId },
            timestamp: at,
            message: { mid: `m_bench${id}`, text },
          },
        ],
      },
    ],
  });
}

function bodyOf(id, chatId, text, target) {
  if (kind === 'vk') return vkBody(id, chatId, text, target);
  if (kind === 'facebook') return facebookBody(id, chatId, text, target);
  return telegramBody(id, chatId, text);
}

async function one(i) {
  const id = firstId + i;
  const isProbe = probeEvery > 0 && i % probeEvery === 0;
  const target = isProbe ? targets.probe : targets.main;
  // Main traffic rotates over `customers` chats; each probe has a chat of its own.
  const chatId = isProbe ? 500_000_000 + id : 100_000_000 + (i % customers);
  const text = `Bench message ${id}: где мой заказ?`;
  const body = bodyOf(id, chatId, text, target);
  const headers = { 'content-type': 'application/json' };
  if (kind === 'telegram') headers['x-telegram-bot-api-secret-token'] = target.secret;
  if (kind === 'facebook')
    headers['x-hub-signature-256'] =
      `sha256=${createHmac('sha256', target.secret).update(body).digest('hex')}`;
  const sent = performance.now();
  if (isProbe) probes.push({ chat: String(chatId), startedAt: epoch() });
  try {
    const status = await client.send(target.url, { method: 'POST', headers, body });
    if (status < 200 || status >= 300) {
      errors += 1;
      firstError ??= `${status} ${target.url}`;
    }
  } catch (error) {
    errors += 1;
    firstError ??= error instanceof Error ? error.message : String(error);
  }
  latencies.push(performance.now() - sent);
}

async function worker() {
  while (next < requests && performance.now() - started < maxMs) await one(next++);
}

await Promise.all(Array.from({ length: concurrency }, worker));
client.close();
parentPort.postMessage({ latencies, errors, firstError, elapsedMs: performance.now() - started, probes });
