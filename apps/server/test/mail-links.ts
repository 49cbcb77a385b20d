import { and, desc, eq } from 'drizzle-orm';
import { mailOutbox } from '../src/db/schema';
import type { TestApp } from './harness';

/**
 * The hash of the newest mailed link containing `marker` (e.g. '/reset_password/') sent to `to`, read
 * from the mail outbox (every mail is recorded there, with or without SMTP).
 */
export async function lastMailedHash(t: TestApp, to: string, marker: string, kind?: string): Promise<string> {
  const rows = await t.deps.database.db
    .select({ text: mailOutbox.text })
    .from(mailOutbox)
    .where(kind ? and(eq(mailOutbox.to, to), eq(mailOutbox.kind, kind)) : eq(mailOutbox.to, to))
    .orderBy(desc(mailOutbox.id))
    .limit(20);
  for (const { text } of rows) {
    const at = text.indexOf(marker);
    if (at >= 0) return text.slice(at + marker.length).split(/[\s"'<>?#]/)[0]!;
  }
  throw new Error(`no mail to ${to} with a link containing ${marker}`);
}
