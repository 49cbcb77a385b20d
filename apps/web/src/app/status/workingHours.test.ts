import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WorkingHoursItem } from '../../api/types';
import { isScheduleStale, nextCheckDelayMs, workingHoursNotices } from './workingHours';

// A fake clock drives the rules the way the shell's timer does: check, wait nextCheckDelayMs, check again.
describe('working-hours notices with a fake clock', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-03-02T08:59:00Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const nowS = () => Math.floor(Date.now() / 1000);
  const nine = Date.parse('2026-03-02T09:00:00Z') / 1000;
  const slot: WorkingHoursItem = { id: 7, started_at: nine, ended_at: nine + 8 * 3600, status: 1 };

  function runChecks(untilS: number, current: number | null, warnBeforeS?: number) {
    const seen: string[] = [];
    const shown = new Set<string>();
    const check = () => {
      for (const notice of workingHoursNotices({
        slots: [slot],
        currentStatus: current,
        nowS: nowS(),
        warnBeforeS,
      })) {
        if (shown.has(notice.key)) continue;
        shown.add(notice.key);
        seen.push(`${notice.kind}@${nowS() - nine}`);
      }
      if (nowS() < untilS) setTimeout(check, nextCheckDelayMs([slot], nowS(), warnBeforeS));
    };
    check();
    vi.advanceTimersByTime((untilS - nowS() + 5) * 1000);
    return seen;
  }

  it("shows 'Смена статуса' once, when the slot starts, if the status differs", () => {
    expect(runChecks(nine + 180, 3)).toEqual(['changing@0']);
  });

  it('shows nothing when the current status already is the slot status', () => {
    expect(runChecks(nine + 180, 1)).toEqual([]);
  });

  it("warns 'Скоро смена статуса' wh_status_notification seconds ahead, then switches", () => {
    vi.setSystemTime(new Date('2026-03-02T08:50:00Z'));
    expect(runChecks(nine + 60, 3, 300)).toEqual(['soon@-300', 'changing@0']);
  });
});

describe('notice windows (docs/product/states.md: within 7 s)', () => {
  const slot: WorkingHoursItem = { id: 1, started_at: 10_000, ended_at: 20_000, status: 2 };
  const kinds = (nowS: number, warn?: number) =>
    workingHoursNotices({ slots: [slot], currentStatus: 1, nowS, warnBeforeS: warn }).map((n) => n.kind);

  it('changing: start − now within 7 s either side', () => {
    expect(kinds(10_000 - 7)).toEqual(['changing']);
    expect(kinds(10_000 + 7)).toEqual(['changing']);
    expect(kinds(10_000 - 8)).toEqual([]);
    expect(kinds(10_000 + 8)).toEqual([]);
  });

  it('soon: start − now within 7 s of wh_status_notification; off when it is 0', () => {
    expect(kinds(10_000 - 600, 600)).toEqual(['soon']);
    expect(kinds(10_000 - 607, 600)).toEqual(['soon']);
    expect(kinds(10_000 - 608, 600)).toEqual([]);
    expect(kinds(10_000 - 600, 0)).toEqual([]);
  });

  it('a slot without a status switches nothing', () => {
    expect(
      workingHoursNotices({ slots: [{ ...slot, status: null }], currentStatus: 1, nowS: 10_000 }),
    ).toEqual([]);
  });
});

describe('check timing and reload', () => {
  const slot: WorkingHoursItem = { id: 1, started_at: 10_000, ended_at: 20_000, status: 2 };

  it('checks every minute, earlier when a start or warning falls inside the minute', () => {
    expect(nextCheckDelayMs([slot], 5_000)).toBe(60_000);
    expect(nextCheckDelayMs([slot], 9_970)).toBe(30_000);
    expect(nextCheckDelayMs([slot], 9_370, 600)).toBe(30_000);
    expect(nextCheckDelayMs([slot], 10_000)).toBe(60_000);
  });

  it('reloads the schedule once it is older than 1200 s', () => {
    expect(isScheduleStale(1_000, 2_200)).toBe(false);
    expect(isScheduleStale(1_000, 2_201)).toBe(true);
  });
});
