DROP INDEX "rule_matches_rule_item_key";--> statement-breakpoint
ALTER TABLE "rule_matches" ADD COLUMN "event" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "rule_queue" ADD COLUMN "trigger" text DEFAULT 'item_created' NOT NULL;--> statement-breakpoint
ALTER TABLE "rule_queue" ADD COLUMN "event" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "rule_matches_rule_item_event_key" ON "rule_matches" USING btree ("rule_id","item_id","event");