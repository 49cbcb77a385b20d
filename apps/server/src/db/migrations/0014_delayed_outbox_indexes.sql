CREATE INDEX "chats_delayed_due_idx" ON "chats" USING btree ("delayed_until") WHERE "status" = 'delayed';--> statement-breakpoint
CREATE INDEX "items_delayed_due_idx" ON "items" USING btree ("delayed_until") WHERE "status" = 'delayed';--> statement-breakpoint
CREATE INDEX "outbox_failed_idx" ON "outbox" USING btree ("space_id","id" DESC NULLS LAST) WHERE "state" = 'failed';--> statement-breakpoint
CREATE INDEX "outbox_item_idx" ON "outbox" USING btree ("item_id","id" DESC NULLS LAST) WHERE "item_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "outbox_ban_idx" ON "outbox" USING btree ("object_id",("payload"->>'authorExternalId'),"id" DESC NULLS LAST) WHERE "action" IN ('block', 'unblock');