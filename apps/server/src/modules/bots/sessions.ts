import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { botSessions } from '../../db/schema';

/**
 * Ends the chat's running bot conversation (state `stopped`): an operator replied in it (the send path,
 * in the reply's transaction) or took it. modules/bots/runtime.ts also checks at the next message.
 */
export async function stopBotSession(db: Db, chatId: number, now = new Date()) {
  await db
    .update(botSessions)
    .set({ state: 'stopped', endedAt: now, updatedAt: now })
    .where(and(eq(botSessions.chatId, chatId), eq(botSessions.state, 'active')));
}
