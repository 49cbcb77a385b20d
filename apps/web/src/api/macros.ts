import type { MacroDto, MacroForm, MacroRunResult, MacrosListWire } from '@otklik/shared';
import { useQuery } from '@tanstack/react-query';
import { inboxKeys } from './inboxCache';
import { api } from './instance';
import { useInvalidating, useInvalidatingAll, useKeptMutation } from './invalidating';
import { queryKeys } from './keys';

// Macros (issue 16): Settings → macros, and the runner on the item page and the list's selection.

export const macroKeys = { all: ['macros'] as const };

export type MacrosList = MacrosListWire;

/** GET /v1/macros; `enabled` false skips the request (macros off for the caller). */
export const useMacros = (enabled = true) =>
  useQuery({
    queryKey: macroKeys.all,
    queryFn: ({ signal }) => api.get<MacrosList>('/v1/macros', { signal }),
    enabled,
    staleTime: 30_000,
  });

export type MacroBody = Omit<MacroForm, 'personal'>;

export const useCreateMacro = () =>
  useInvalidating(macroKeys.all, (body: MacroForm & { space_id: number }) =>
    api.post<MacroDto>('/v1/macros', body),
  );
export const useUpdateMacro = () =>
  useInvalidating(macroKeys.all, ({ id, ...body }: MacroBody & { id: number }) =>
    api.put<MacroDto>(`/v1/macros/${id}`, body),
  );
export const useDeleteMacro = () =>
  useInvalidating(macroKeys.all, (id: number) => api.delete<{ message: string }>(`/v1/macros/${id}`));

/** What running the macro on these comments would do; changes nothing. */
export const usePreviewMacro = () =>
  useKeptMutation({
    mutationFn: ({ id, item_ids }: { id: number; item_ids: number[] }) =>
      api.post<MacroRunResult>(`/v1/macros/${id}/preview`, { item_ids }),
  });

/** Runs it; the inbox, counters and usage counts are read again afterwards. */
export const useRunMacro = () =>
  useInvalidatingAll(
    [inboxKeys.all, queryKeys.counts, macroKeys.all],
    ({ id, item_ids }: { id: number; item_ids: number[] }) =>
      api.post<MacroRunResult>(`/v1/macros/${id}/run`, { item_ids }),
    { background: true },
  );
