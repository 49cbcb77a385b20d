CREATE TABLE "qa_samples" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "qa_samples_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"space_id" integer NOT NULL,
	"scorecard_id" integer NOT NULL,
	"kind" text NOT NULL,
	"reply_id" bigint NOT NULL,
	"item_id" bigint,
	"chat_id" bigint,
	"object_id" integer NOT NULL,
	"operator_id" integer NOT NULL,
	"reply_at" timestamp with time zone NOT NULL,
	"source" text NOT NULL,
	"week" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reviewer_id" integer,
	"scores" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"comment" text DEFAULT '' NOT NULL,
	"total" real,
	"critical_failed" boolean DEFAULT false NOT NULL,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "qa_scorecards" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "qa_scorecards_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"space_id" integer NOT NULL,
	"name" text NOT NULL,
	"criteria" jsonb NOT NULL,
	"random_percent" integer DEFAULT 0 NOT NULL,
	"conditions" jsonb DEFAULT '{"object_ids":[],"providers":[],"user_ids":[]}'::jsonb NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "qa_samples" ADD CONSTRAINT "qa_samples_scorecard_id_qa_scorecards_id_fk" FOREIGN KEY ("scorecard_id") REFERENCES "public"."qa_scorecards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qa_scorecards" ADD CONSTRAINT "qa_scorecards_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "qa_samples_reply_key" ON "qa_samples" USING btree ("scorecard_id","kind","reply_id");--> statement-breakpoint
CREATE INDEX "qa_samples_queue_idx" ON "qa_samples" USING btree ("space_id","status","reply_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "qa_samples_operator_idx" ON "qa_samples" USING btree ("operator_id","reviewed_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "qa_scorecards_space_idx" ON "qa_scorecards" USING btree ("space_id");