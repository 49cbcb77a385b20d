CREATE TABLE "youscan_mentions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "youscan_mentions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"space_id" integer NOT NULL,
	"topic_ref" integer NOT NULL,
	"external_id" text NOT NULL,
	"url" text,
	"text" text NOT NULL,
	"author_name" text,
	"author_url" text,
	"source" text,
	"sentiment" text,
	"published_at" timestamp with time zone NOT NULL,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "youscan_topics" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "youscan_topics_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"space_id" integer NOT NULL,
	"name" text NOT NULL,
	"topic_id" text NOT NULL,
	"api_key_sealed" text NOT NULL,
	"cursor" timestamp with time zone,
	"status" text,
	"last_import_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "youscan_mentions" ADD CONSTRAINT "youscan_mentions_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "youscan_mentions" ADD CONSTRAINT "youscan_mentions_topic_ref_youscan_topics_id_fk" FOREIGN KEY ("topic_ref") REFERENCES "public"."youscan_topics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "youscan_topics" ADD CONSTRAINT "youscan_topics_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "youscan_topics" ADD CONSTRAINT "youscan_topics_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "youscan_mentions_topic_external_uq" ON "youscan_mentions" USING btree ("topic_ref","external_id");--> statement-breakpoint
CREATE INDEX "youscan_mentions_topic_published_idx" ON "youscan_mentions" USING btree ("topic_ref","published_at");--> statement-breakpoint
CREATE INDEX "youscan_mentions_unread_idx" ON "youscan_mentions" USING btree ("space_id") WHERE read_at IS NULL;--> statement-breakpoint
CREATE INDEX "youscan_topics_space_idx" ON "youscan_topics" USING btree ("space_id");