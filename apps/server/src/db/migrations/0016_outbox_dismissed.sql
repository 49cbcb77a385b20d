ALTER TABLE "outbox" ADD COLUMN "dismissed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "dismissed_by" integer;--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_dismissed_by_users_id_fk" FOREIGN KEY ("dismissed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;