// The subset of MAX Bot API objects the connector reads (PROVIDERS §7e). Field names follow the
// official TS client (max-bot-api-client-ts `types/message.ts`, `types/user.ts`); attachment payloads
// beyond `url` are UNCONFIRMED (PROVIDERS §7e does not list them).

export interface MaxUser {
  user_id: number;
  first_name?: string;
  last_name?: string | null;
  name?: string;
  username?: string | null;
  is_bot?: boolean;
  last_activity_time?: number;
  avatar_url?: string;
}

export type MaxChatType = 'dialog' | 'chat' | 'channel';

export interface MaxAttachment {
  type:
    | 'image'
    | 'video'
    | 'audio'
    | 'file'
    | 'sticker'
    | 'share'
    | 'location'
    | 'contact'
    | 'inline_keyboard';
  payload?: { url?: string; token?: string; photo_id?: number; code?: string } | null;
  filename?: string;
  size?: number;
  width?: number;
  height?: number;
}

export interface MaxMessage {
  sender?: MaxUser;
  recipient: { chat_id: number | null; chat_type: MaxChatType; user_id?: number | null };
  timestamp: number;
  body: { mid: string; seq?: number; text?: string | null; attachments?: MaxAttachment[] | null };
  link?: { type: 'reply' | 'forward'; sender?: MaxUser; chat_id?: number; message: { mid: string } } | null;
  url?: string | null;
}

export type MaxUpdate =
  | {
      update_type: 'message_created' | 'message_edited';
      timestamp: number;
      message: MaxMessage;
      user_locale?: string;
    }
  | {
      update_type: 'message_removed';
      timestamp: number;
      message_id: string;
      chat_id: number;
      user_id: number;
    }
  | { update_type: 'bot_started' | 'bot_stopped'; timestamp: number; chat_id: number; user: MaxUser }
  | { update_type: string; timestamp: number };

/** The update types we subscribe to (PROVIDERS §7e "Update types"). */
export const UPDATE_TYPES = ['message_created', 'message_edited', 'message_removed', 'bot_started'];
