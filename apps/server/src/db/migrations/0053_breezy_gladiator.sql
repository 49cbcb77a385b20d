CREATE TABLE "qa_approvals" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "qa_approvals_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"space_id" integer NOT NULL,
	"object_id" integer NOT NULL,
	"kind" text NOT NULL,
	"reply_id" bigint NOT NULL,
	"item_id" bigint,
	"chat_id" bigint,
	"outbox_id" bigint NOT NULL,
	"operator_id" integer,
	"status" text DEFAULT 'pending' NOT NULL,
	"deadline" timestamp with time zone,
	"reviewer_id" integer,
	"comment" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "approval_required" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "approval_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "qa_approvals_queue_idx" ON "qa_approvals" USING btree ("space_id","status","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "qa_approvals_outbox_idx" ON "qa_approvals" USING btree ("outbox_id");--> statement-breakpoint
CREATE INDEX "qa_approvals_operator_idx" ON "qa_approvals" USING btree ("operator_id","created_at" DESC NULLS LAST);