CREATE TABLE "csi_settings" (
	"object_id" integer PRIMARY KEY NOT NULL,
	"space_id" integer NOT NULL,
	"settings" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "csi_surveys" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "csi_surveys_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"space_id" integer NOT NULL,
	"object_id" integer NOT NULL,
	"chat_id" bigint NOT NULL,
	"user_id" integer,
	"language" text NOT NULL,
	"message_id" bigint,
	"sent_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"close_reason" text,
	"closed_at" timestamp with time zone,
	"score" smallint,
	"comment" text,
	"answered_at" timestamp with time zone,
	"commented_at" timestamp with time zone,
	"answer_message_ids" bigint[] DEFAULT '{}'::bigint[] NOT NULL
);
--> statement-breakpoint
ALTER TABLE "csi_settings" ADD CONSTRAINT "csi_settings_object_id_objects_id_fk" FOREIGN KEY ("object_id") REFERENCES "public"."objects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "csi_surveys" ADD CONSTRAINT "csi_surveys_object_id_objects_id_fk" FOREIGN KEY ("object_id") REFERENCES "public"."objects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "csi_surveys" ADD CONSTRAINT "csi_surveys_chat_id_chats_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."chats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "csi_surveys_chat_idx" ON "csi_surveys" USING btree ("chat_id","sent_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "csi_surveys_space_sent_idx" ON "csi_surveys" USING btree ("space_id","sent_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "csi_surveys_answered_idx" ON "csi_surveys" USING btree ("space_id","answered_at" DESC NULLS LAST) WHERE "score" IS NOT NULL;