CREATE TABLE "hde_integrations" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "hde_integrations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"space_id" integer NOT NULL,
	"domain" text NOT NULL,
	"email" text NOT NULL,
	"api_key_sealed" text NOT NULL,
	"last_check" text,
	"last_checked_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hde_tickets" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "hde_tickets_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"space_id" integer NOT NULL,
	"integration_id" integer NOT NULL,
	"item_id" bigint,
	"chat_id" bigint,
	"ticket_id" text NOT NULL,
	"url" text NOT NULL,
	"title" text NOT NULL,
	"status" text DEFAULT '' NOT NULL,
	"status_synced_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "hde_integrations" ADD CONSTRAINT "hde_integrations_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hde_integrations" ADD CONSTRAINT "hde_integrations_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hde_tickets" ADD CONSTRAINT "hde_tickets_integration_id_hde_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."hde_integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hde_tickets" ADD CONSTRAINT "hde_tickets_item_id_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hde_tickets" ADD CONSTRAINT "hde_tickets_chat_id_chats_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."chats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hde_tickets" ADD CONSTRAINT "hde_tickets_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "hde_integrations_space_idx" ON "hde_integrations" USING btree ("space_id");--> statement-breakpoint
CREATE INDEX "hde_tickets_item_idx" ON "hde_tickets" USING btree ("item_id");--> statement-breakpoint
CREATE INDEX "hde_tickets_chat_idx" ON "hde_tickets" USING btree ("chat_id");--> statement-breakpoint
CREATE INDEX "hde_tickets_sync_idx" ON "hde_tickets" USING btree ("status_synced_at");