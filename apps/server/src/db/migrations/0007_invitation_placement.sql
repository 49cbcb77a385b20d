ALTER TABLE "invitations" ADD COLUMN "group_id" integer;--> statement-breakpoint
ALTER TABLE "invitations" ADD COLUMN "department_ids" jsonb DEFAULT '[]'::jsonb NOT NULL;