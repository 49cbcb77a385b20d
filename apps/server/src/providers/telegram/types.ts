// The subset of Bot API objects the connector reads (PROVIDERS §1 "Update shape"). Shared by the
// connector, its mapping and the test emulator.

export interface TgUser {
  id: number;
  is_bot: boolean;
  first_name: string;
  last_name?: string;
  username?: string;
  language_code?: string;
}

export interface TgChat {
  id: number;
  type: 'private' | 'group' | 'supergroup' | 'channel';
  title?: string;
  username?: string;
  first_name?: string;
  last_name?: string;
}

export interface TgPhotoSize {
  file_id: string;
  file_unique_id: string;
  width: number;
  height: number;
  file_size?: number;
}

export interface TgFile {
  file_id: string;
  file_unique_id: string;
  file_name?: string;
  mime_type?: string;
  file_size?: number;
  duration?: number;
  width?: number;
  height?: number;
  emoji?: string;
}

export interface TgMessageOrigin {
  type: 'user' | 'hidden_user' | 'chat' | 'channel';
  date: number;
  chat?: TgChat;
  message_id?: number;
}

export interface TgMessage {
  message_id: number;
  message_thread_id?: number;
  from?: TgUser;
  sender_chat?: TgChat;
  date: number;
  chat: TgChat;
  edit_date?: number;
  reply_to_message?: TgMessage;
  text?: string;
  caption?: string;
  photo?: TgPhotoSize[];
  document?: TgFile;
  video?: TgFile;
  voice?: TgFile;
  audio?: TgFile;
  sticker?: TgFile;
  animation?: TgFile;
  video_note?: TgFile;
  media_group_id?: string;
  is_automatic_forward?: boolean;
  forward_origin?: TgMessageOrigin;
}

export type TgReactionType =
  | { type: 'emoji'; emoji: string }
  | { type: 'custom_emoji'; custom_emoji_id: string }
  | { type: 'paid' };

export interface TgMessageReactionUpdated {
  chat: TgChat;
  message_id: number;
  user?: TgUser;
  actor_chat?: TgChat;
  date: number;
  old_reaction: TgReactionType[];
  new_reaction: TgReactionType[];
}

export interface TgMessageReactionCountUpdated {
  chat: TgChat;
  message_id: number;
  date: number;
  reactions: Array<{ type: TgReactionType; total_count: number }>;
}

export interface TgUpdate {
  update_id: number;
  message?: TgMessage;
  edited_message?: TgMessage;
  channel_post?: TgMessage;
  edited_channel_post?: TgMessage;
  message_reaction?: TgMessageReactionUpdated;
  message_reaction_count?: TgMessageReactionCountUpdated;
  /** A press on an inline keyboard button we sent (a chat-bot's option). */
  callback_query?: TgCallbackQuery;
}

export interface TgCallbackQuery {
  id: string;
  from: TgUser;
  message?: TgMessage;
  data?: string;
}

/**
 * What we subscribe to. `message_reaction` and `message_reaction_count` must be named explicitly or
 * Telegram never sends them (PROVIDERS §1 getUpdates `allowed_updates`).
 */
export const ALLOWED_UPDATES = [
  'message',
  'edited_message',
  'channel_post',
  'edited_channel_post',
  'message_reaction',
  'message_reaction_count',
  'callback_query',
];
