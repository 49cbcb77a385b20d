import type {
  BusinessHoursAnswer,
  BusinessHoursSettings,
  RolePresetName,
  ScheduleTemplateApplyWire,
} from '@otklik/shared';
import type { RouteQuery } from '@otklik/shared/routes';
import { type QueryKey, useQuery } from '@tanstack/react-query';
import { api } from './instance';
import { useInvalidating, useInvalidatingAll } from './invalidating';
import { queryKeys } from './keys';
import type {
  Absence,
  Company,
  Department,
  Holiday,
  Invitation,
  ItemsResponse,
  Me,
  Member,
  ScheduleSlot,
  ScheduleTemplate,
  TemplateItem,
  UserGroup,
  UserStatus,
  UsersResponse,
} from './types';

// Settings data (docs/product/screens-and-routes.md settings area): users and invitations, user statuses, companies, departments,
// user groups, working schedules. One hook per call; writes invalidate the lists they change.

/** A list endpoint answering {items: T[]}. */
function useItems<T>(key: QueryKey, path: string, query?: RouteQuery, enabled = true) {
  return useQuery({
    queryKey: query ? [...key, query] : key,
    queryFn: ({ signal }) => api.get<ItemsResponse<T>>(path, { signal, query }).then((r) => r.items),
    enabled,
  });
}

/** Create, update and delete on /v1/<path>, invalidating `keys`. */
function useCrud<TCreate, TUpdate>(path: string, ...keys: QueryKey[]) {
  return {
    create: useInvalidatingAll(keys, (body: TCreate) => api.post<unknown>(path, body)),
    update: useInvalidatingAll(keys, ({ id, ...body }: TUpdate & { id: number }) =>
      api.put<unknown>(`${path}/${id}`, body),
    ),
    remove: useInvalidatingAll(keys, (id: number) => api.delete<unknown>(`${path}/${id}`)),
  };
}

// ---------------------------------------------------------------- users and invitations

export const useUsers = (spaceId?: number) =>
  useQuery({
    queryKey: [...queryKeys.users, spaceId ?? 'all'],
    queryFn: ({ signal }) => api.get<UsersResponse>('/v1/users', { signal, query: { space_id: spaceId } }),
  });

export const useMember = (id: number, spaceId?: number, enabled = true) =>
  useQuery({
    queryKey: [...queryKeys.users, 'member', id, spaceId ?? 'any'],
    queryFn: ({ signal }) => api.get<Member>(`/v1/users/${id}`, { signal, query: { space_id: spaceId } }),
    enabled,
  });

export interface InviteBody {
  email: string;
  space_id: number;
  role: RolePresetName;
  group_id?: number | null;
  department_ids?: number[];
}

export const useInviteUser = () =>
  useInvalidating(queryKeys.users, (body: InviteBody) =>
    api.post<{ user?: Member; invitation?: Invitation }>('/v1/users', body),
  );

export interface UpdateMemberBody {
  id: number;
  space_id: number;
  role?: RolePresetName;
  group_id?: number | null;
  department_ids?: number[];
}

export const useUpdateMember = () =>
  useInvalidating(queryKeys.users, ({ id, ...body }: UpdateMemberBody) =>
    api.put<Member>(`/v1/users/${id}`, body),
  );

export const useRemoveMember = () =>
  useInvalidating(queryKeys.users, ({ id, space_id }: { id: number; space_id: number }) =>
    api.delete<unknown>(`/v1/users/${id}`, undefined, { query: { space_id } }),
  );

export const useRevokeInvitation = () =>
  useInvalidating(queryKeys.users, (id: number) => api.delete<unknown>(`/v1/users/invitations/${id}`));

export const useResendInvitation = () =>
  useInvalidating(queryKeys.users, (id: number) =>
    api.post<Invitation>(`/v1/users/invitations/${id}/resend`),
  );

// ---------------------------------------------------------------- user statuses

export const useUserStatuses = () => useItems<UserStatus>(queryKeys.userStatuses, '/v1/user_statuses');

export interface StatusBody {
  name: string;
  color: string;
  hidden: boolean;
  offline: boolean;
  workinghours: boolean;
  position?: number;
}

export const useStatusCrud = () =>
  useCrud<StatusBody & { space_id: number }, Partial<StatusBody>>(
    '/v1/user_statuses',
    queryKeys.userStatuses,
    queryKeys.config,
  );

// ---------------------------------------------------------------- companies, departments, user groups

export const useCompanies = () => useItems<Company>(queryKeys.companies, '/v1/companies');
export const useDepartments = () => useItems<Department>(queryKeys.departments, '/v1/departments');
export const useUserGroups = () => useItems<UserGroup>(queryKeys.userGroups, '/v1/usergroups');

/** A company's create or update: its settings go as a patch (what is left out keeps its value). */
export type CompanyBody = { name: string; settings?: Partial<Company['settings']> };
export const useCompanyCrud = () =>
  useCrud<CompanyBody & { space_id: number }, Partial<CompanyBody>>(
    '/v1/companies',
    queryKeys.companies,
    queryKeys.objects,
  );

export const useDepartmentCrud = () =>
  useCrud<{ name: string; space_id: number }, { name: string }>(
    '/v1/departments',
    queryKeys.departments,
    queryKeys.objects,
  );

export type UserGroupBody = { name: string; company_ids: number[]; object_ids: number[] };
export const useUserGroupCrud = () =>
  useCrud<UserGroupBody & { space_id: number }, Partial<UserGroupBody>>(
    '/v1/usergroups',
    queryKeys.userGroups,
    queryKeys.users,
  );

// ---------------------------------------------------------------- working schedules

/** Slots of a space (optionally one user) between two instants (unix s, at most 62 days). */
export const useSlots = (
  query: { space_id: number; user_id?: number; from: number; to: number },
  enabled = true,
) => useItems<ScheduleSlot>([...queryKeys.schedule, 'slots'], '/v1/workinghours', query, enabled);

export interface SlotBody {
  space_id: number;
  user_id: number;
  started_at: number;
  ended_at: number;
  status: number | null;
}

export const useSlotCrud = () =>
  useCrud<SlotBody, Partial<Pick<SlotBody, 'started_at' | 'ended_at' | 'status'>>>(
    '/v1/workinghours',
    queryKeys.schedule,
    queryKeys.myWorkingHours,
  );

export const useTemplates = (spaceId?: number) =>
  useItems<ScheduleTemplate>(
    [...queryKeys.schedule, 'templates'],
    '/v1/workinghours/templates',
    spaceId ? { space_id: spaceId } : undefined,
  );

export type TemplateBody = { name: string; items: TemplateItem[] };
export const useTemplateCrud = () =>
  useCrud<TemplateBody & { space_id: number }, Partial<TemplateBody>>(
    '/v1/workinghours/templates',
    queryKeys.schedule,
  );

export const useApplyTemplate = () =>
  useInvalidatingAll(
    [queryKeys.schedule, queryKeys.myWorkingHours],
    ({ id, ...body }: { id: number; user_ids: number[]; from: string; to: string }) =>
      api.post<ScheduleTemplateApplyWire>(`/v1/workinghours/templates/${id}/apply`, body),
  );

export const useAbsences = (
  query: { space_id: number; user_id?: number; from: number; to: number },
  enabled = true,
) => useItems<Absence>([...queryKeys.schedule, 'absences'], '/v1/workinghours/absences', query, enabled);

export type AbsenceBody = {
  space_id: number;
  user_id: number;
  started_at: number;
  ended_at: number;
  reason?: string | null;
};
export const useAbsenceCrud = () =>
  useCrud<AbsenceBody, Partial<Omit<AbsenceBody, 'space_id' | 'user_id'>>>(
    '/v1/workinghours/absences',
    queryKeys.schedule,
    queryKeys.myWorkingHours,
  );

export const useHolidays = (spaceId?: number) =>
  useItems<Holiday>(
    [...queryKeys.schedule, 'holidays'],
    '/v1/workinghours/holidays',
    spaceId ? { space_id: spaceId } : undefined,
  );

export const useHolidayCrud = () =>
  useCrud<{ space_id: number; day: string; name: string }, { day?: string; name?: string }>(
    '/v1/workinghours/holidays',
    queryKeys.schedule,
  );

/** GET /v1/workinghours/business: the space's business hours and companies' overrides. */
export const useBusinessHours = (spaceId?: number) =>
  useQuery({
    queryKey: [...queryKeys.schedule, 'business', spaceId],
    queryFn: ({ signal }) =>
      api.get<BusinessHoursAnswer>('/v1/workinghours/business', { signal, query: { space_id: spaceId! } }),
    enabled: spaceId !== undefined,
  });

/** Saving or removing the space's schedule or a company's override also changes the business-hours stats. */
export const useBusinessHoursWrite = () => ({
  save: useInvalidatingAll(
    [queryKeys.schedule, ['stats']],
    (body: BusinessHoursSettings & { space_id: number; company_id: number | null }) =>
      api.put<BusinessHoursAnswer>('/v1/workinghours/business', body),
  ),
  remove: useInvalidatingAll(
    [queryKeys.schedule, ['stats']],
    ({ space_id, company_id }: { space_id: number; company_id: number | null }) =>
      api.delete<BusinessHoursAnswer>('/v1/workinghours/business', undefined, {
        query: company_id === null ? { space_id } : { space_id, company_id },
      }),
  ),
});

// ---------------------------------------------------------------- my settings

/** PUT /v1/me {settings}: merged into the stored settings (docs/product/entities.md User.settings). */
export const useUpdateMySettings = () =>
  useInvalidatingAll([queryKeys.me, queryKeys.config], (settings: Record<string, unknown>) =>
    api.put<Me>('/v1/me', { settings }),
  );
