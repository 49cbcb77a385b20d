import { isProviderId, type UserSettings, userSettingsSchema } from '@otklik/shared';
import { filterKeys, filtersToSearch, type ListKind, parseFilters } from './filters';

// "My settings" (settings/config, docs/product/entities.md User.settings) as the filters a list opens with: the account,
// company (its accounts), network, tag and "hide assigned to others" (assigned to me or nobody). They are
// applied when a list is opened with a clean address; the person can change or clear them for the visit.
// Not applied (nothing to apply them to yet): `priority` — rows have no priority — and the issues_*
// defaults, kept for when tasks (issues) exist.

export interface DefaultsContext {
  accounts: Array<{ id: number; company_id: number | null }>;
  myId: number | null;
}

/** The address a list opens with under these settings, or null when the settings set no filter. */
export function defaultListSearch(
  raw: Record<string, unknown>,
  kind: ListKind,
  ctx: DefaultsContext,
): URLSearchParams | null {
  const parsed = userSettingsSchema.safeParse(raw);
  const settings: UserSettings = parsed.success ? parsed.data : {};
  const filters = parseFilters('', kind);
  if (settings.object_id) filters.object_id = [settings.object_id];
  else if (settings.company_id) {
    const ids = ctx.accounts.filter((a) => a.company_id === settings.company_id).map((a) => a.id);
    // A company without accounts would show an empty list for no visible reason: not applied.
    if (ids.length > 0) filters.object_id = ids;
  }
  if (settings.provider && isProviderId(settings.provider)) filters.provider = [settings.provider];
  if (settings.tag_id) filters.tag_id = [settings.tag_id];
  if (settings.hide_other && ctx.myId !== null) filters.assigned_user_id = [ctx.myId, 'none'];
  const search = filtersToSearch(filters, kind);
  return search.toString() === '' ? null : search;
}

/** Whether the address already says what to filter by (then the defaults stay out of it). */
export function hasFilters(search: URLSearchParams, kind: ListKind): boolean {
  return filterKeys(kind).some((key) => search.has(key));
}
