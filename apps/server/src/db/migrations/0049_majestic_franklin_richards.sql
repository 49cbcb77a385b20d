CREATE TABLE "monitoring_mentions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "monitoring_mentions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"space_id" integer NOT NULL,
	"query_id" integer NOT NULL,
	"item_id" integer NOT NULL,
	"object_id" integer NOT NULL,
	"matched_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "monitoring_queries" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "monitoring_queries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"space_id" integer NOT NULL,
	"name" text NOT NULL,
	"query" text NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "monitoring_mentions" ADD CONSTRAINT "monitoring_mentions_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitoring_mentions" ADD CONSTRAINT "monitoring_mentions_query_id_monitoring_queries_id_fk" FOREIGN KEY ("query_id") REFERENCES "public"."monitoring_queries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitoring_mentions" ADD CONSTRAINT "monitoring_mentions_item_id_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitoring_mentions" ADD CONSTRAINT "monitoring_mentions_object_id_objects_id_fk" FOREIGN KEY ("object_id") REFERENCES "public"."objects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitoring_queries" ADD CONSTRAINT "monitoring_queries_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "monitoring_mentions_query_item_uq" ON "monitoring_mentions" USING btree ("query_id","item_id");--> statement-breakpoint
CREATE INDEX "monitoring_mentions_query_matched_idx" ON "monitoring_mentions" USING btree ("query_id","matched_at");--> statement-breakpoint
CREATE INDEX "monitoring_mentions_unread_idx" ON "monitoring_mentions" USING btree ("space_id","object_id") WHERE read_at IS NULL;--> statement-breakpoint
CREATE INDEX "monitoring_queries_space_idx" ON "monitoring_queries" USING btree ("space_id");