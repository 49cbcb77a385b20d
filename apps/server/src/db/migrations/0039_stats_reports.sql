CREATE TABLE "stats_report_runs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "stats_report_runs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"report_id" integer NOT NULL,
	"space_id" integer NOT NULL,
	"user_id" integer,
	"manual" boolean NOT NULL,
	"period_from" text NOT NULL,
	"period_to" text NOT NULL,
	"recipients" jsonb NOT NULL,
	"status" text NOT NULL,
	"error" text,
	"sent_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stats_reports" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "stats_reports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"space_id" integer NOT NULL,
	"created_by" integer,
	"name" text NOT NULL,
	"tabs" jsonb NOT NULL,
	"frequency" text NOT NULL,
	"weekday" integer,
	"monthday" integer,
	"hour" integer NOT NULL,
	"user_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"emails" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"locale" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"filters" jsonb NOT NULL,
	"next_run_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "stats_report_runs" ADD CONSTRAINT "stats_report_runs_report_id_stats_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."stats_reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stats_report_runs" ADD CONSTRAINT "stats_report_runs_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stats_report_runs" ADD CONSTRAINT "stats_report_runs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stats_reports" ADD CONSTRAINT "stats_reports_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stats_reports" ADD CONSTRAINT "stats_reports_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stats_report_runs_report_idx" ON "stats_report_runs" USING btree ("report_id","id");--> statement-breakpoint
CREATE INDEX "stats_reports_due_idx" ON "stats_reports" USING btree ("next_run_at") WHERE next_run_at IS NOT NULL;--> statement-breakpoint
CREATE INDEX "stats_reports_space_idx" ON "stats_reports" USING btree ("space_id","id");