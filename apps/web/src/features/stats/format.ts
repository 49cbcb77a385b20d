import type { TFunction } from 'i18next';

/** A duration in seconds as "1 h 05 min" / "3 min 20 s" / "40 s"; a dash when nothing was measured. */
export function formatDuration(t: TFunction, seconds: number | null): string {
  if (seconds === null) return t('shell.stats.duration.none');
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h > 0) return t('shell.stats.duration.h', { h, m: String(m).padStart(2, '0') });
  if (m > 0) return t('shell.stats.duration.m', { m, s: String(s).padStart(2, '0') });
  return t('shell.stats.duration.s', { s });
}

export function formatShare(share: number | null): string {
  return share === null ? '—' : `${Math.round(share * 1000) / 10}%`;
}

/** Seconds as minutes with one decimal, for chart axes; null stays null (a gap). */
export function toMinutes(seconds: number | null): number | null {
  return seconds === null ? null : Math.round(seconds / 6) / 10;
}
