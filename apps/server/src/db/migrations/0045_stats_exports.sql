CREATE TABLE "stats_exports" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "stats_exports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"space_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"format" text NOT NULL,
	"locale" text NOT NULL,
	"filters" jsonb NOT NULL,
	"period_from" text NOT NULL,
	"period_to" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"rows_done" integer DEFAULT 0 NOT NULL,
	"rows_total" integer,
	"size" bigint,
	"file" text,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"expires_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "stats_exports" ADD CONSTRAINT "stats_exports_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stats_exports" ADD CONSTRAINT "stats_exports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stats_exports_user_idx" ON "stats_exports" USING btree ("space_id","user_id","id");--> statement-breakpoint
CREATE INDEX "stats_exports_pending_idx" ON "stats_exports" USING btree ("id") WHERE status IN ('queued', 'running');--> statement-breakpoint
CREATE INDEX "stats_exports_expiry_idx" ON "stats_exports" USING btree ("expires_at") WHERE status = 'done';