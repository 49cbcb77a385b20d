ALTER TABLE "notification_space_settings" ADD COLUMN "email_from_name" text;--> statement-breakpoint
ALTER TABLE "notification_space_settings" ADD COLUMN "email_from_address" text;