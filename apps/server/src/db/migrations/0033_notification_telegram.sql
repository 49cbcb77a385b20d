CREATE TABLE "notification_telegram" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"chat_id" text,
	"code_hash" text,
	"code_expires_at" timestamp with time zone,
	"linked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "notification_telegram" ADD CONSTRAINT "notification_telegram_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;