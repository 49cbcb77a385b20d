import { numberedOptions } from '@otklik/shared';
import type { OutgoingContent } from '../types';

// WhatsApp interactive messages (Cloud API `type:"interactive"`; PROVIDERS §3 lists the answers as
// `interactive` button_reply / list_reply): up to 3 options go as reply buttons, up to 10 as a list. Each
// button's or row's `id` is our data, which the answer carries back, so a title cut to Meta's length
// still answers the right option. Anything larger, or a body too long, goes as numbered text.

const BUTTONS_MAX = 3;
const BUTTON_TITLE_MAX = 20;
const BUTTON_BODY_MAX = 1024;
const ROWS_MAX = 10;
const ROW_TITLE_MAX = 24;
const ROW_DESCRIPTION_MAX = 72;
const LIST_BODY_MAX = 4096;
const ID_MAX = 256;
/** The list's opening button (up to 20 characters); the same in every language. */
const LIST_BUTTON = '☰';

/** The `/messages` body for a text with answer buttons. */
export function interactiveBody(to: string, content: OutgoingContent): Record<string, unknown> {
  const text = content.text.trim();
  const buttons = (content.buttons ?? []).flat();
  const idsFit = buttons.every((b) => b.data.length > 0 && b.data.length <= ID_MAX);
  if (text && idsFit && buttons.length <= BUTTONS_MAX && text.length <= BUTTON_BODY_MAX) {
    return {
      to,
      type: 'interactive',
      interactive: {
        type: 'button',
        body: { text },
        action: {
          buttons: buttons.map((b) => ({
            type: 'reply',
            reply: { id: b.data, title: b.label.slice(0, BUTTON_TITLE_MAX) },
          })),
        },
      },
    };
  }
  if (text && idsFit && buttons.length <= ROWS_MAX && text.length <= LIST_BODY_MAX) {
    return {
      to,
      type: 'interactive',
      interactive: {
        type: 'list',
        body: { text },
        action: {
          button: LIST_BUTTON,
          sections: [
            {
              rows: buttons.map((b) => ({
                id: b.data,
                title: b.label.slice(0, ROW_TITLE_MAX),
                // The whole label where the title had to be cut.
                ...(b.label.length > ROW_TITLE_MAX
                  ? { description: b.label.slice(0, ROW_DESCRIPTION_MAX) }
                  : {}),
              })),
            },
          ],
        },
      },
    };
  }
  return {
    to,
    type: 'text',
    text: { body: numberedOptions(text, buttons), preview_url: false },
  };
}
