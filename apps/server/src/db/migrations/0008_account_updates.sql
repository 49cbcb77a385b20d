ALTER TABLE "objects" ADD COLUMN "updates_mode" text;--> statement-breakpoint
ALTER TABLE "objects" ADD COLUMN "poll_cursor" text;--> statement-breakpoint
ALTER TABLE "objects" ADD COLUMN "poll_lease_node" text;--> statement-breakpoint
ALTER TABLE "objects" ADD COLUMN "poll_lease_until" timestamp with time zone;