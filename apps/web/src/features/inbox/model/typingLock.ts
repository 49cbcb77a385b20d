import { LOCK_ACTIVITY_PING_MS } from '@otklik/shared';

// "Who is answering" from the reply box (docs/product/api.md lock, issue 13): opening an item takes nothing; the
// first keystroke takes the lock, further typing tells the server at most every LOCK_ACTIVITY_PING_MS
// (the server lets go after LOCK_IDLE_MS without it), and an empty box, a sent reply, closing the item
// or leaving the page let go. Pure, so the rules are unit-tested without a socket or a browser.

export interface TypingLockPort {
  lock(key: string): void;
  unlock(key: string): void;
  takeover(key: string): void;
}

export interface TypingLock {
  /** The box's text changed: typing takes or keeps the lock; an emptied box lets go. */
  typed(text: string): void;
  /** Let go now (sent, closed, left). */
  release(): void;
  /** The server let go on its own (idle, taken over): the next keystroke asks again. */
  lost(): void;
  /** Take the lock from the colleague who holds it (a permitted role); let go like a typed one. */
  takeOver(): void;
}

export function createTypingLock(
  key: string,
  port: TypingLockPort,
  now: () => number = Date.now,
  pingMs = LOCK_ACTIVITY_PING_MS,
): TypingLock {
  let held = false;
  let toldAt = 0;
  const release = () => {
    if (!held) return;
    held = false;
    port.unlock(key);
  };
  return {
    typed(text) {
      if (text.trim() === '') return release();
      const at = now();
      if (held && at - toldAt < pingMs) return;
      held = true;
      toldAt = at;
      port.lock(key);
    },
    release,
    lost() {
      held = false;
    },
    takeOver() {
      held = true;
      toldAt = now();
      port.takeover(key);
    },
  };
}
