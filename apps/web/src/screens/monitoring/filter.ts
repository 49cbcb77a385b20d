import { type MonitoringMentionFilter, monitoringMentionFilterSchema } from '@otklik/shared';

/** The monitoring screen's narrowing, kept in the address under these keys (the server's query names). */
export const FILTER_KEYS = ['object_id', 'provider', 'sentiment', 'read'] as const;

/** The filter as the address keeps it; an unknown or malformed value drops only itself. */
export function filterFromParams(params: URLSearchParams): MonitoringMentionFilter {
  const out: Record<string, unknown> = {};
  for (const key of FILTER_KEYS) {
    const value = params.get(key);
    if (!value) continue;
    const parsed = monitoringMentionFilterSchema.shape[key].safeParse(value);
    if (parsed.success && parsed.data !== undefined) out[key] = parsed.data;
  }
  return out as MonitoringMentionFilter;
}
