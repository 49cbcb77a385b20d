import { describe, expect, it } from 'vitest';
import type { UserStatus } from '../../api/types';
import {
  applyManualStatus,
  applySocketStatus,
  initialStatus,
  mergeServerStatus,
  onlineChoices,
  shouldPollStatus,
  spaceNeedingStatus,
} from './statusLogic';

const T0 = 1_800_000_000;

describe('status polling guard (docs/product/states.md: only when more than 600 s passed since the last manual change)', () => {
  it('polls when there was never a manual change', () => {
    expect(shouldPollStatus(initialStatus(1), T0)).toBe(true);
  });

  it('does not poll within 600 s of a manual change, polls after', () => {
    const picked = applyManualStatus(initialStatus(1), 2, T0);
    expect(shouldPollStatus(picked, T0 + 180)).toBe(false);
    expect(shouldPollStatus(picked, T0 + 600)).toBe(false);
    expect(shouldPollStatus(picked, T0 + 601)).toBe(true);
  });

  it("respects a manual change reported by the server's manual_at", () => {
    const merged = mergeServerStatus(initialStatus(1), { status: 1, manual_at: T0 }, T0 + 10);
    expect(shouldPollStatus(merged, T0 + 300)).toBe(false);
    expect(shouldPollStatus(merged, T0 + 700)).toBe(true);
  });
});

describe('server value vs local value (docs/product/states.md: server wins only after 30 s)', () => {
  it('keeps a local change younger than 30 s', () => {
    const picked = applyManualStatus(initialStatus(1), 2, T0);
    expect(mergeServerStatus(picked, { status: 1 }, T0 + 30).status).toBe(2);
  });

  it('takes the server value once the local change is older than 30 s', () => {
    const picked = applyManualStatus(initialStatus(1), 2, T0);
    expect(mergeServerStatus(picked, { status: 3 }, T0 + 31).status).toBe(3);
  });

  it('takes the server value when there was no local change at all', () => {
    expect(mergeServerStatus(initialStatus(1), { status: 3 }, T0).status).toBe(3);
  });

  it('returns the same object when nothing changes', () => {
    const local = initialStatus(1);
    expect(mergeServerStatus(local, { status: 1 }, T0)).toBe(local);
  });
});

describe('socket status messages', () => {
  it('a schedule switch applies at once, even right after a manual pick', () => {
    const picked = applyManualStatus(initialStatus(1), 2, T0);
    expect(applySocketStatus(picked, { status: 3, source: 'schedule' }, T0 + 1).status).toBe(3);
  });

  it('a late echo of an older manual pick does not undo a newer one', () => {
    const picked = applyManualStatus(initialStatus(1), 2, T0);
    expect(
      applySocketStatus(picked, { status: 1, source: 'manual', changed_at: T0 - 1 }, T0 + 2).status,
    ).toBe(2);
  });

  it('a manual change from another tab applies when the local one is old', () => {
    const picked = applyManualStatus(initialStatus(1), 2, T0);
    const next = applySocketStatus(picked, { status: 1, source: 'manual', changed_at: T0 + 100 }, T0 + 100);
    expect(next.status).toBe(1);
    expect(next.manualAt).toBe(T0 + 100);
  });
});

describe('offline dialog', () => {
  const statuses: UserStatus[] = [
    {
      id: 1,
      name: 'Online',
      color: '#0f0',
      hidden: false,
      offline: false,
      workinghours: true,
      space_id: 10,
      position: 0,
    },
    {
      id: 2,
      name: 'Lunch',
      color: '#ff0',
      hidden: true,
      offline: false,
      workinghours: false,
      space_id: 10,
      position: 0,
    },
    {
      id: 3,
      name: 'Offline',
      color: '#888',
      hidden: false,
      offline: true,
      workinghours: false,
      space_id: 10,
      position: 0,
    },
    {
      id: 4,
      name: 'Offline',
      color: '#888',
      hidden: false,
      offline: true,
      workinghours: false,
      space_id: 20,
      position: 0,
    },
  ];

  it('offers only non-hidden, non-offline statuses of the space', () => {
    expect(onlineChoices(statuses, 10).map((s) => s.id)).toEqual([1]);
  });

  it('finds the first space where the user is offline and can pick something else', () => {
    const current = new Map([
      [10, 3],
      [20, 4],
    ]);
    expect(spaceNeedingStatus([20, 10], (id) => current.get(id) ?? null, statuses)).toBe(10);
    current.set(10, 1);
    expect(spaceNeedingStatus([20, 10], (id) => current.get(id) ?? null, statuses)).toBeNull();
  });
});
