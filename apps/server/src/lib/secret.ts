import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { instanceSettings } from '../db/schema';
import { randomToken } from './crypto';

/**
 * The key that seals credentials at rest: SECRET_KEY when set; otherwise one generated on first start and
 * kept in the database so every node of an instance shares it (README explains setting SECRET_KEY instead).
 */
export async function resolveSecretKey(
  db: Db,
  configured: string | undefined,
): Promise<{ key: string; generated: boolean }> {
  if (configured) return { key: configured, generated: false };
  await db
    .insert(instanceSettings)
    .values({ key: 'secret_key', value: randomToken(48) })
    .onConflictDoNothing();
  const [row] = await db
    .select()
    .from(instanceSettings)
    .where(eq(instanceSettings.key, 'secret_key'))
    .limit(1);
  return { key: row!.value, generated: true };
}
