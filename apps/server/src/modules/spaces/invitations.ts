import { INVITATION_TTL_S, type Locale } from '@otklik/shared';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { invitations, spaces } from '../../db/schema';
import type { Config } from '../../lib/config';
import { randomToken, sha256 } from '../../lib/crypto';
import { notFound } from '../../lib/errors';
import type { Mailer } from '../../mail/mailer';
import { renderMail } from '../../mail/templates';
import { assertUserLimit } from './service';

/** Invites `email` into a space with `roles`; mails the `/signup/{hash}` link. Returns the hash. */
export async function inviteToSpace(
  deps: { db: Db; mailer: Mailer; config: Config },
  opts: {
    spaceId: number;
    email: string;
    roles: Record<string, boolean>;
    invitedBy: { id: number; name: string };
    locale: Locale;
    groupId?: number | null;
    departmentIds?: number[];
  },
): Promise<string> {
  const { db } = deps;
  const [space] = await db
    .select({ name: spaces.name })
    .from(spaces)
    .where(eq(spaces.id, opts.spaceId))
    .limit(1);
  if (!space) throw notFound();
  await assertUserLimit(db, opts.spaceId);
  const hash = randomToken(24);
  const email = opts.email.trim().toLowerCase();
  await db.insert(invitations).values({
    spaceId: opts.spaceId,
    email,
    hashDigest: sha256(hash),
    roles: opts.roles,
    groupId: opts.groupId ?? null,
    departmentIds: opts.departmentIds ?? [],
    invitedBy: opts.invitedBy.id,
    expiresAt: new Date(Date.now() + INVITATION_TTL_S * 1000),
  });
  const link = `${deps.config.appUrl}/signup/${hash}`;
  const mail = renderMail('invitation', opts.locale, {
    link,
    spaceName: space.name,
    inviterName: opts.invitedBy.name,
  });
  await deps.mailer.send({ to: email, ...mail, kind: 'invitation' });
  return hash;
}
