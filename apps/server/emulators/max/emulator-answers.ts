import type { MaxUpdate } from '../../src/providers/max/types';

// TEST-ONLY: shapes shared by the MAX emulator (emulator.ts): recorded calls, answers in MAX's error
// shape `{code, message}` (PROVIDERS §7e), and per-bot state.

export interface MaxCall {
  token: string;
  method: string;
  path: string;
  query: Record<string, string>;
  body: Record<string, unknown> | undefined;
}

export interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}
export const err = (
  status: number,
  code: string,
  message: string,
  headers?: Record<string, string>,
): Answer => ({
  status,
  body: { code, message },
  headers,
});
export const ok = (body: unknown): Answer => ({ status: 200, body });

export interface BotState {
  subs: Array<{ url: string; update_types: string[]; secret?: string; time: number }>;
  queue: Array<{ seq: number; update: MaxUpdate }>;
}
