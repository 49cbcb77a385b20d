import { CSI_DEFAULT_SETTINGS, type CsiAccount, type CsiSettingsBody, csiSettingsBody } from '@otklik/shared';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { csiSettings, objects } from '../../db/schema';
import { getConnector } from '../../providers/registry';

// settings/csi: one row per account (objects), none = the defaults (off). Only accounts whose network
// has private messages (a connector with sendMessage) can survey.

export type ObjectRow = typeof objects.$inferSelect;

export const surveysChats = (provider: string) => typeof getConnector(provider)?.sendMessage === 'function';
export const hasButtons = (provider: string) => getConnector(provider)?.buttons === true;

/** Stored settings read through the schema (a row written by an older version gets today's defaults). */
export function settingsOf(row: { settings: unknown } | undefined): CsiSettingsBody {
  if (!row) return CSI_DEFAULT_SETTINGS;
  const parsed = csiSettingsBody.safeParse({ ...CSI_DEFAULT_SETTINGS, ...(row.settings as object) });
  return parsed.success ? parsed.data : CSI_DEFAULT_SETTINGS;
}

export async function loadSettings(db: Db, objectId: number): Promise<CsiSettingsBody> {
  const [row] = await db.select().from(csiSettings).where(eq(csiSettings.objectId, objectId));
  return settingsOf(row);
}

export function presentAccount(object: ObjectRow, settings: CsiSettingsBody): CsiAccount {
  return {
    object_id: object.id,
    space_id: object.spaceId,
    name: object.name,
    provider: object.provider,
    buttons: hasButtons(object.provider),
    ...settings,
  };
}

/** The space's accounts that can survey, within `objectIds` when the caller's group is limited. */
export async function listAccounts(
  db: Db,
  spaceId: number,
  objectIds: number[] | null,
): Promise<CsiAccount[]> {
  const rows = await db
    .select({ object: objects, settings: csiSettings.settings })
    .from(objects)
    .leftJoin(csiSettings, eq(csiSettings.objectId, objects.id))
    .where(
      and(
        eq(objects.spaceId, spaceId),
        objectIds === null ? undefined : inArray(objects.id, [0, ...objectIds]),
      ),
    )
    .orderBy(asc(objects.name), asc(objects.id));
  return rows
    .filter((r) => surveysChats(r.object.provider))
    .map((r) => presentAccount(r.object, settingsOf(r.settings ? { settings: r.settings } : undefined)));
}

export async function saveSettings(db: Db, object: ObjectRow, body: CsiSettingsBody) {
  await db
    .insert(csiSettings)
    .values({ objectId: object.id, spaceId: object.spaceId, settings: body })
    .onConflictDoUpdate({ target: csiSettings.objectId, set: { settings: body, updatedAt: new Date() } });
}
