CREATE TABLE "notification_slack" (
	"space_id" integer PRIMARY KEY NOT NULL,
	"team_id" text NOT NULL,
	"team_name" text NOT NULL,
	"bot_user_id" text,
	"token_sealed" text NOT NULL,
	"scope" text DEFAULT '' NOT NULL,
	"channel_id" text,
	"channel_name" text,
	"locale" text DEFAULT 'ru' NOT NULL,
	"installed_by" integer,
	"installed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"error" text,
	"error_at" timestamp with time zone,
	"broken" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD COLUMN "payload" jsonb;--> statement-breakpoint
ALTER TABLE "notification_slack" ADD CONSTRAINT "notification_slack_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_slack" ADD CONSTRAINT "notification_slack_installed_by_users_id_fk" FOREIGN KEY ("installed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;