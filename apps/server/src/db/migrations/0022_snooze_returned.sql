ALTER TABLE "chats" ADD COLUMN "returned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "returned_at" timestamp with time zone;