CREATE TABLE "author_facts" (
	"author_id" bigint NOT NULL,
	"fact_id" integer NOT NULL,
	"value" text NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "author_facts_author_id_fact_id_pk" PRIMARY KEY("author_id","fact_id")
);
--> statement-breakpoint
CREATE TABLE "custom_facts" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "custom_facts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"space_id" integer NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"options" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "author_facts" ADD CONSTRAINT "author_facts_author_id_authors_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."authors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "author_facts" ADD CONSTRAINT "author_facts_fact_id_custom_facts_id_fk" FOREIGN KEY ("fact_id") REFERENCES "public"."custom_facts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "author_facts" ADD CONSTRAINT "author_facts_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_facts" ADD CONSTRAINT "custom_facts_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "author_facts_fact_idx" ON "author_facts" USING btree ("fact_id");--> statement-breakpoint
CREATE UNIQUE INDEX "custom_facts_space_name_key" ON "custom_facts" USING btree ("space_id",lower("name"));