import type { SandboxEntry, SandboxPage } from './inboxTypes';
import { api } from './instance';

// The public API behind a sandbox account's customer page (no sign-in: the token is in the path).

const base = (token: string) => `/v1/sandbox/${encodeURIComponent(token)}`;
const open = { auth: false, forbiddenPage: false } as const;

export const sandboxApi = {
  page: (token: string, signal?: AbortSignal) => api.get<SandboxPage>(base(token), { ...open, signal }),
  comment: (token: string, body: { author_name: string; text: string; parent_id?: number }) =>
    api.post<SandboxEntry>(`${base(token)}/comments`, body, open),
  review: (token: string, body: { author_name: string; text: string; rating: number }) =>
    api.post<SandboxEntry>(`${base(token)}/reviews`, body, open),
  message: (token: string, body: { author_name: string; text: string; peer?: string }) =>
    api.post<SandboxEntry>(`${base(token)}/messages`, body, open),
  post: (token: string, body: { text: string }) => api.post<SandboxEntry>(`${base(token)}/posts`, body, open),
  edit: (token: string, id: number, body: { author_name: string; text: string }) =>
    api.put<SandboxEntry>(`${base(token)}/entries/${id}`, body, open),
  remove: (token: string, id: number, authorName: string) =>
    api.delete<{ message: string }>(`${base(token)}/entries/${id}`, undefined, {
      ...open,
      query: { author_name: authorName },
    }),
};
