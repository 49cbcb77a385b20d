import { describe, expect, it } from 'vitest';
import { createTypingLock } from './typingLock';

function setup() {
  const sent: string[] = [];
  let clock = 1_000;
  const lock = createTypingLock(
    'item:7',
    {
      lock: (key) => sent.push(`lock ${key}`),
      unlock: (key) => sent.push(`unlock ${key}`),
      takeover: (key) => sent.push(`takeover ${key}`),
    },
    () => clock,
    15_000,
  );
  return { lock, sent, advance: (ms: number) => (clock += ms) };
}

describe('typing lock (issue 13: typing locks, viewing does not)', () => {
  it('takes nothing until the first keystroke, then the lock', () => {
    const { lock, sent } = setup();
    expect(sent).toEqual([]);
    lock.typed('З');
    expect(sent).toEqual(['lock item:7']);
  });

  it('keeps telling the server while typing, at most once per interval', () => {
    const { lock, sent, advance } = setup();
    lock.typed('З');
    advance(5_000);
    lock.typed('Зд');
    advance(9_999);
    lock.typed('Здр');
    expect(sent).toEqual(['lock item:7']);
    advance(1);
    lock.typed('Здра');
    expect(sent).toEqual(['lock item:7', 'lock item:7']);
  });

  it('lets go when the box is emptied, sent or left — once', () => {
    const { lock, sent } = setup();
    lock.typed('Привет');
    lock.typed('  ');
    lock.release();
    expect(sent).toEqual(['lock item:7', 'unlock item:7']);
    lock.release();
    expect(sent).toHaveLength(2);
  });

  it('after the server let go (idle, taken over), the next keystroke asks again at once', () => {
    const { lock, sent, advance } = setup();
    lock.typed('Привет');
    advance(1_000);
    lock.lost();
    lock.typed('Привет!');
    expect(sent).toEqual(['lock item:7', 'lock item:7']);
    lock.lost();
    lock.release();
    expect(sent).toHaveLength(2);
  });

  it('a take-over holds the lock until sent or left, without another lock message while typing', () => {
    const { lock, sent } = setup();
    lock.takeOver();
    lock.typed('Отвечу сама');
    lock.release();
    expect(sent).toEqual(['takeover item:7', 'unlock item:7']);
  });
});
