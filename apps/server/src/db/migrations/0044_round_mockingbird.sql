CREATE TABLE "emotion_settings" (
	"space_id" integer PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"words" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "sentiment" text;--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "emotion" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "sentiment" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "emotion" text;--> statement-breakpoint
ALTER TABLE "emotion_settings" ADD CONSTRAINT "emotion_settings_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;