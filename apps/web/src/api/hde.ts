import {
  HDE_TICKET_EVENTS,
  type HdeForm,
  type HdeTicketsAnswer,
  type PresentedHde,
  type PresentedHdeTicket,
} from '@otklik/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './instance';
import { useInvalidatingAll, useKeptMutation } from './invalidating';
import { usePush } from './pushes';

// HelpDeskEddy (issue 21): a space's connection (settings/hde/{id}) and tickets made from items and chats.

export type HdeKind = 'items' | 'chats';
const listKey = (spaceId: number | null) => ['hde', 'list', spaceId] as const;
const oneKey = (id: number) => ['hde', 'one', id] as const;
export const hdeTicketsKey = (kind: HdeKind, id: number) => ['hde', 'tickets', kind, id] as const;

export const useHdeIntegrations = (spaceId: number | null) =>
  useQuery({
    queryKey: listKey(spaceId),
    queryFn: ({ signal }) => api.get<{ items: PresentedHde[] }>(`/v1/hde?space_id=${spaceId}`, { signal }),
    enabled: spaceId !== null,
  });

export const useHdeIntegration = (id: number) =>
  useQuery({
    queryKey: oneKey(id),
    queryFn: ({ signal }) => api.get<{ integration: PresentedHde }>(`/v1/hde/${id}`, { signal }),
    enabled: Number.isInteger(id) && id > 0,
  });

function useHdeMutation<V>(fn: (vars: V) => Promise<{ integration: PresentedHde }>) {
  const queryClient = useQueryClient();
  return useKeptMutation({
    mutationFn: fn,
    onSuccess: (result) => {
      queryClient.setQueryData(oneKey(result.integration.id), result);
      void queryClient.invalidateQueries({ queryKey: ['hde', 'list'] });
    },
  });
}

export const useCreateHde = () =>
  useHdeMutation((body: HdeForm & { space_id: number }) =>
    api.post<{ integration: PresentedHde }>('/v1/hde', body),
  );

export const useUpdateHde = () =>
  useHdeMutation(({ id, ...body }: HdeForm & { id: number }) =>
    api.put<{ integration: PresentedHde }>(`/v1/hde/${id}`, body),
  );

export const useTestHde = () =>
  useHdeMutation((id: number) => api.post<{ integration: PresentedHde }>(`/v1/hde/${id}/test`, {}));

/**
 * Tickets made from one record. A ticket created or a status synced back arrives over the socket
 * (`items.hde_ticket` / `chats.hde_ticket`) and replaces the row in place; the list is also refreshed
 * every minute in case the socket was away.
 */
export function useHdeTickets(kind: HdeKind, id: number) {
  const queryClient = useQueryClient();
  usePush(kind === 'items' ? HDE_TICKET_EVENTS.item : HDE_TICKET_EVENTS.chat, (m) => {
    if (('item_id' in m ? m.item_id : m.chat_id) !== id) return;
    const ticket: PresentedHdeTicket | undefined = m.ticket;
    const key = hdeTicketsKey(kind, id);
    const current = queryClient.getQueryData<HdeTicketsAnswer>(key);
    if (!ticket || !current) {
      void queryClient.invalidateQueries({ queryKey: key });
      return;
    }
    const known = current.tickets.some((x) => x.id === ticket.id);
    queryClient.setQueryData<HdeTicketsAnswer>(key, {
      ...current,
      tickets: known
        ? current.tickets.map((x) => (x.id === ticket.id ? ticket : x))
        : [ticket, ...current.tickets],
    });
  });
  return useQuery({
    queryKey: hdeTicketsKey(kind, id),
    queryFn: ({ signal }) => api.get<HdeTicketsAnswer>(`/v1/${kind}/${id}/hde-tickets`, { signal }),
    enabled: Number.isInteger(id) && id > 0,
    refetchInterval: 60_000,
  });
}

export const useCreateHdeTicket = (kind: HdeKind, id: number) =>
  useInvalidatingAll(
    [hdeTicketsKey(kind, id)],
    (title: string) =>
      api.post<{ ticket: PresentedHdeTicket }>(`/v1/${kind}/${id}/hde-tickets`, title ? { title } : {}),
    { background: true },
  );
