import type {
  RuleDryRunResult,
  RuleDto,
  RuleFailureWire,
  RuleForm,
  RuleMatchWire,
  RuleStats,
  RulesListWire,
} from '@otklik/shared';
import type { RouteQuery } from '@otklik/shared/routes';
import { useQuery } from '@tanstack/react-query';
import { api } from './instance';
import { useInvalidating, useKeptMutation } from './invalidating';

// Auto-rules (issue 17): Settings → auto-rules, the dry run and stats/rules.

export const ruleKeys = { all: ['rules'] as const };

/** GET /v1/rules; `enabled` false skips the request (rules not available to the caller). */
export const useRules = (enabled = true) =>
  useQuery({
    queryKey: ruleKeys.all,
    queryFn: ({ signal }) => api.get<RulesListWire>('/v1/rules', { signal }),
    enabled,
    staleTime: 30_000,
  });

export type RuleBody = RuleForm;

export const useCreateRule = () =>
  useInvalidating(ruleKeys.all, (body: RuleBody & { space_id: number }) =>
    api.post<RuleDto>('/v1/rules', body),
  );
export const useUpdateRule = () =>
  useInvalidating(ruleKeys.all, ({ id, ...body }: RuleBody & { id: number }) =>
    api.put<RuleDto>(`/v1/rules/${id}`, body),
  );
export const useDeleteRule = () =>
  useInvalidating(ruleKeys.all, (id: number) => api.delete<{ message: string }>(`/v1/rules/${id}`));

/** What the rule (saved or not) would match among the last 1,000 items; changes nothing. */
export const useDryRun = () =>
  useKeptMutation({
    mutationFn: (body: RuleBody & { space_id: number; rule_id: number | null }) =>
      api.post<RuleDryRunResult>('/v1/rules/dry-run', body),
  });

export const useRuleStats = (query: RouteQuery | null) =>
  useQuery({
    queryKey: ['stats', 'rules', query],
    queryFn: ({ signal }) =>
      api.get<RuleStats>('/v1/stats/rules', {
        signal,
        query: query ?? undefined,
      }),
    enabled: query !== null,
    staleTime: 30_000,
  });

export type RuleMatchDto = RuleMatchWire;

/** GET /v1/rules/:id/matches: the items a rule ran on, newest first (the stats drill-down). */
/** A failed auto-rule run, for settings/errors (GET /v1/errors/rules). */
export type RuleFailureDto = RuleFailureWire;

export const useRuleFailures = () =>
  useQuery({
    queryKey: [...ruleKeys.all, 'failures'],
    queryFn: ({ signal }) => api.get<{ items: RuleFailureDto[] }>('/v1/errors/rules', { signal }),
    staleTime: 10_000,
  });

export const useRuleMatches = (id: number | null) =>
  useQuery({
    queryKey: [...ruleKeys.all, id, 'matches'],
    queryFn: ({ signal }) => api.get<{ items: RuleMatchDto[] }>(`/v1/rules/${id}/matches`, { signal }),
    enabled: id !== null,
    staleTime: 10_000,
  });
