CREATE TABLE "rule_matches" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rule_matches_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"space_id" integer NOT NULL,
	"rule_id" integer NOT NULL,
	"item_id" bigint NOT NULL,
	"status" text NOT NULL,
	"actions_done" integer DEFAULT 0 NOT NULL,
	"results" jsonb NOT NULL,
	"error" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rule_queue" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rule_queue_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"space_id" integer NOT NULL,
	"item_id" bigint NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"enqueued_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rules" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rules_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"space_id" integer NOT NULL,
	"name" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"paused" boolean DEFAULT false NOT NULL,
	"stop_processing" boolean DEFAULT false NOT NULL,
	"trigger" text NOT NULL,
	"minutes" integer,
	"conditions" jsonb NOT NULL,
	"actions" jsonb NOT NULL,
	"match_count" integer DEFAULT 0 NOT NULL,
	"last_matched_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "rule_matches" ADD CONSTRAINT "rule_matches_rule_id_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rules" ADD CONSTRAINT "rules_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "rule_matches_rule_item_key" ON "rule_matches" USING btree ("rule_id","item_id");--> statement-breakpoint
CREATE INDEX "rule_matches_space_at_idx" ON "rule_matches" USING btree ("space_id","at");--> statement-breakpoint
CREATE INDEX "rule_matches_item_idx" ON "rule_matches" USING btree ("item_id");--> statement-breakpoint
CREATE INDEX "rule_queue_locked_idx" ON "rule_queue" USING btree ("locked_until","id");--> statement-breakpoint
CREATE INDEX "rules_space_idx" ON "rules" USING btree ("space_id","position");--> statement-breakpoint
CREATE INDEX "rules_active_trigger_idx" ON "rules" USING btree ("trigger","space_id") WHERE NOT "paused";--> statement-breakpoint
CREATE INDEX "items_unreplied_idx" ON "items" USING btree ("space_id","received_at") WHERE NOT "is_own" AND "first_reply_at" IS NULL AND "status" IN ('new', 'inprogress', 'open');