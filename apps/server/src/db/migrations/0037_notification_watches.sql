CREATE TABLE "notification_watches" (
	"user_id" integer NOT NULL,
	"space_id" integer NOT NULL,
	"object_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"filter_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_watches_user_id_space_id_pk" PRIMARY KEY("user_id","space_id")
);
--> statement-breakpoint
ALTER TABLE "notification_watches" ADD CONSTRAINT "notification_watches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_watches" ADD CONSTRAINT "notification_watches_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notification_watches_space_idx" ON "notification_watches" USING btree ("space_id");