import type { Db } from '../../db/client';
import { sandboxEntries } from '../../db/schema';
import type { ObjectRow } from '../types';
import { ACCOUNT_AUTHOR_ID, customerIdFor } from './mapping';

const SAMPLE_CUSTOMER = 'Анна Смирнова';

/**
 * A fresh sandbox is not empty: a welcome post by the account, a customer's comment under it and a
 * private message (docs/product/limits.md "Data import on connect"), so the first look at the inbox shows the loop.
 */
export async function seedSandbox(db: Db, object: ObjectRow, now: Date) {
  const at = (secondsAgo: number) => new Date(now.getTime() - secondsAgo * 1000);
  const [post] = await db
    .insert(sandboxEntries)
    .values({
      objectId: object.id,
      kind: 'post',
      fromAccount: true,
      authorName: object.name,
      authorId: ACCOUNT_AUTHOR_ID,
      text: 'Добро пожаловать! Это тестовая публикация: оставьте под ней комментарий как клиент и ответьте на него в Otklik.',
      createdAt: at(120),
    })
    .returning();
  const customerId = customerIdFor(SAMPLE_CUSTOMER);
  await db.insert(sandboxEntries).values([
    {
      objectId: object.id,
      kind: 'comment',
      parentId: post!.id,
      authorName: SAMPLE_CUSTOMER,
      authorId: customerId,
      text: 'Здравствуйте! Подскажите, сколько идёт доставка?',
      createdAt: at(60),
    },
    {
      objectId: object.id,
      kind: 'message',
      peer: customerId,
      authorName: SAMPLE_CUSTOMER,
      authorId: customerId,
      text: 'Добрый день! Хочу уточнить статус заказа.',
      createdAt: at(30),
    },
  ]);
}
