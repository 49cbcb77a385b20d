import type {
  TemplateDto,
  TemplateForm,
  TemplateRenderWire,
  TemplatesImportedWire,
  TemplatesListWire,
  TemplateUsedWire,
} from '@otklik/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from './instance';
import { useInvalidating } from './invalidating';

// Reply templates (issue 16): Settings → templates and the composer's `/` picker read the same list.

export const templateKeys = { all: ['templates'] as const };

export type TemplatesList = TemplatesListWire;

export const fetchTemplates = (signal?: AbortSignal) => api.get<TemplatesList>('/v1/templates', { signal });

/** GET /v1/templates; `enabled` false skips the request (templates off for the caller). */
export const useTemplates = (enabled = true) =>
  useQuery({
    queryKey: templateKeys.all,
    queryFn: ({ signal }) => fetchTemplates(signal),
    enabled,
    staleTime: 30_000,
  });

export type TemplateBody = Omit<TemplateForm, 'personal'>;

export const useCreateTemplate = () =>
  useInvalidating(templateKeys.all, (body: TemplateForm & { space_id: number }) =>
    api.post<TemplateDto>('/v1/templates', body),
  );
export const useUpdateTemplate = () =>
  useInvalidating(templateKeys.all, ({ id, ...body }: TemplateBody & { id: number }) =>
    api.put<TemplateDto>(`/v1/templates/${id}`, body),
  );
export const useDeleteTemplate = () =>
  useInvalidating(templateKeys.all, (id: number) => api.delete<{ message: string }>(`/v1/templates/${id}`));
export const useImportTemplates = () =>
  useInvalidating(templateKeys.all, (body: { space_id: number; csv: string }) =>
    api.post<TemplatesImportedWire>('/v1/templates/import', body),
  );

export const exportTemplates = (spaceId: number) =>
  api.get<Blob>('/v1/templates/export.csv', { query: { space_id: spaceId }, responseType: 'blob' });

/** The template filled for this comment or chat (author, account, operator, date, custom defaults). */
export const renderTemplate = (id: number, target: { item_id?: number; chat_id?: number }) =>
  api.post<TemplateRenderWire>(`/v1/templates/${id}/render`, target);

/** A reply made from the template was sent. */
export const countTemplateUse = (id: number) => api.post<TemplateUsedWire>(`/v1/templates/${id}/used`);
