import { numberedOptions } from '@otklik/shared';
import type { OutgoingButton, OutgoingContent } from '../types';

// VK bot keyboards (PROVIDERS §2 messages.send `keyboard`, a JSON string; dev.vk.com "Клавиатуры для
// ботов"): our answer buttons go as an INLINE keyboard of text buttons under the message. A tap sends the
// button's label as the customer's message (message_new) with the button's `payload`; we put our data
// there and read it back, so a label cut to VK's 40 characters still answers the right option.

/** An inline keyboard takes at most 6 rows and 10 buttons; a text button's label at most 40 characters. */
const INLINE_ROWS = 6;
const INLINE_BUTTONS = 10;
const LABEL_MAX = 40;
const PAYLOAD_MAX = 255;

const payloadOf = (b: OutgoingButton) => JSON.stringify({ button: b.data });

/** Rows of six or fewer: one option a row, packed two a row when there are more rows than VK takes. */
function fitRows(rows: OutgoingButton[][]): OutgoingButton[][] {
  if (rows.length <= INLINE_ROWS) return rows;
  const flat = rows.flat();
  const packed: OutgoingButton[][] = [];
  for (let i = 0; i < flat.length; i += 2) packed.push(flat.slice(i, i + 2));
  return packed;
}

/** The message text and the `keyboard` parameter; numbered text when VK cannot show the buttons. */
export function vkKeyboardOf(content: OutgoingContent, body: string): { message: string; keyboard?: string } {
  const rows = content.buttons?.filter((r) => r.length > 0) ?? [];
  if (rows.length === 0) return { message: body };
  const flat = rows.flat();
  const fits =
    flat.length <= INLINE_BUTTONS &&
    flat.every((b) => payloadOf(b).length <= PAYLOAD_MAX) &&
    fitRows(rows).length <= INLINE_ROWS;
  if (!fits) return { message: numberedOptions(body, flat) };
  const keyboard = {
    inline: true,
    buttons: fitRows(rows).map((row) =>
      row.map((b) => ({
        action: { type: 'text', label: b.label.slice(0, LABEL_MAX), payload: payloadOf(b) },
      })),
    ),
  };
  return { message: body, keyboard: JSON.stringify(keyboard) };
}

/** A tap on one of our buttons: the data we put in its payload; null for any other message. */
export function buttonDataOf(payload: string | undefined): string | null {
  if (!payload) return null;
  try {
    const parsed = JSON.parse(payload) as unknown;
    const data = (parsed as { button?: unknown } | null)?.button;
    return typeof data === 'string' ? data : null;
  } catch {
    return null;
  }
}
