import { z } from 'zod';

// HelpDeskEddy integration (issue 21): a space's connection to its HelpDeskEddy helpdesk. Operators
// turn an item or a chat into a ticket there; a job keeps the ticket's status in step.

/** "acme.helpdeskeddy.com" or a full base URL ("https://help.example.com"); the API lives under /api/v2/. */
export const HDE_DOMAIN_MAX = 200;
export const HDE_TICKET_TITLE_MAX = 200;
/** Characters of conversation text sent as the ticket's description. */
export const HDE_TEXT_MAX = 20_000;

const domain = z
  .string()
  .trim()
  .min(1, 'hde.domain.required')
  .max(HDE_DOMAIN_MAX, 'hde.domain.invalid')
  .refine((v) => {
    try {
      const url = new URL(/^https?:\/\//i.test(v) ? v : `https://${v}`);
      return url.hostname.includes('.') || url.hostname === 'localhost';
    } catch {
      return false;
    }
  }, 'hde.domain.invalid');

export const hdeFormSchema = z.object({
  domain,
  email: z.string().trim().email('hde.email.invalid').max(200, 'hde.email.invalid'),
  /** Blank on update keeps the stored key. */
  api_key: z.string().trim().max(500, 'hde.apiKey.required'),
});
export type HdeForm = z.infer<typeof hdeFormSchema>;

export const createHdeBody = hdeFormSchema.extend({
  space_id: z.number().int().positive(),
  api_key: z.string().trim().min(1, 'hde.apiKey.required').max(500, 'hde.apiKey.required'),
});
export const updateHdeBody = hdeFormSchema.partial();

export const createHdeTicketBody = z.object({
  title: z
    .string()
    .trim()
    .min(1, 'hde.title.required')
    .max(HDE_TICKET_TITLE_MAX, 'hde.title.required')
    .optional(),
});

/** The base URL of the API for a stored domain. */
export function hdeApiBase(domainValue: string): string {
  const base = /^https?:\/\//i.test(domainValue) ? domainValue : `https://${domainValue}`;
  return `${base.replace(/\/+$/, '')}/api/v2/`;
}

/** What leaves the server: never the key, only whether one is stored. */
export const hdeWireSchema = z.object({
  id: z.number().int(),
  space_id: z.number().int(),
  domain: z.string(),
  email: z.string(),
  has_api_key: z.boolean(),
  /** 'ok' | 'auth' | 'unreachable' after the last check, null before any. */
  last_check: z.enum(['ok', 'auth', 'unreachable']).nullable(),
  /** Unix seconds. */
  last_checked_at: z.number().int().nullable(),
});
export type PresentedHde = z.infer<typeof hdeWireSchema>;

/** GET /v1/hde: the connections, and the spaces one administers. */
export const hdeListWireSchema = z.object({
  items: z.array(hdeWireSchema),
  space_ids: z.array(z.number().int()),
});
/** One connection: the create, read, change and check answers. */
export const hdeIntegrationWireSchema = z.object({ integration: hdeWireSchema });

/**
 * The socket messages when a ticket was created from an item or chat or its status changed in
 * HelpDeskEddy: `{ object_id, item_id | chat_id, ticket: PresentedHdeTicket }`. Named like the record's
 * other events (`items.*` / `chats.*`), so only members who see that account's comments or chats get
 * them (as `items.notes`), and an open item or chat page shows the status live.
 */
export const HDE_TICKET_EVENTS = { item: 'items.hde_ticket', chat: 'chats.hde_ticket' } as const;

export const hdeTicketWireSchema = z.object({
  id: z.number().int(),
  integration_id: z.number().int(),
  /** The ticket's id in HelpDeskEddy. */
  ticket_id: z.string(),
  url: z.string(),
  title: z.string(),
  status: z.string(),
  /** Unix seconds. */
  status_synced_at: z.number().int().nullable(),
  created_at: z.number().int(),
});
export type PresentedHdeTicket = z.infer<typeof hdeTicketWireSchema>;

/** The item or chat page's block: tickets made from it, and whether a new one can be made. */
export const hdeTicketsWireSchema = z.object({
  tickets: z.array(hdeTicketWireSchema),
  integration_id: z.number().int().nullable(),
});
export type HdeTicketsAnswer = z.infer<typeof hdeTicketsWireSchema>;

/** POST /v1/{items|chats}/{id}/hde-tickets: the ticket made. */
export const hdeTicketAnswerWireSchema = z.object({ ticket: hdeTicketWireSchema });
