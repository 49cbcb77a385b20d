CREATE TABLE "activity" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "activity_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"space_id" integer NOT NULL,
	"type" text NOT NULL,
	"object_id" integer,
	"item_id" bigint,
	"chat_id" bigint,
	"user_id" integer,
	"cause_kind" text NOT NULL,
	"cause_id" integer,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "author_labels" (
	"author_id" bigint NOT NULL,
	"label_id" integer NOT NULL,
	"space_id" integer NOT NULL,
	CONSTRAINT "author_labels_author_id_label_id_pk" PRIMARY KEY("author_id","label_id")
);
--> statement-breakpoint
CREATE TABLE "authors" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "authors_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"space_id" integer NOT NULL,
	"provider" text NOT NULL,
	"external_id" text NOT NULL,
	"name" text NOT NULL,
	"screen_name" text,
	"image" text,
	"url" text,
	"blocked_until" timestamp with time zone,
	"blocked_forever" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_tags" (
	"chat_id" bigint NOT NULL,
	"tag_id" integer NOT NULL,
	"space_id" integer NOT NULL,
	CONSTRAINT "chat_tags_chat_id_tag_id_pk" PRIMARY KEY("chat_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "chats" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "chats_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"space_id" integer NOT NULL,
	"object_id" integer NOT NULL,
	"external_id" text NOT NULL,
	"author_id" bigint,
	"status" text DEFAULT 'new' NOT NULL,
	"close_reason" text,
	"delayed_until" timestamp with time zone,
	"assigned_user_id" integer,
	"last_message_at" timestamp with time zone NOT NULL,
	"last_message_text" text DEFAULT '' NOT NULL,
	"last_message_is_own" boolean DEFAULT false NOT NULL,
	"unread_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"first_reply_at" timestamp with time zone,
	"closed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "inbox_counters" (
	"object_id" integer NOT NULL,
	"space_id" integer NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "inbox_counters_object_id_kind_status_pk" PRIMARY KEY("object_id","kind","status")
);
--> statement-breakpoint
CREATE TABLE "item_tags" (
	"item_id" bigint NOT NULL,
	"tag_id" integer NOT NULL,
	"space_id" integer NOT NULL,
	CONSTRAINT "item_tags_item_id_tag_id_pk" PRIMARY KEY("item_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "items" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"space_id" integer NOT NULL,
	"object_id" integer NOT NULL,
	"post_id" bigint,
	"parent_id" bigint,
	"kind" text NOT NULL,
	"external_id" text,
	"author_id" bigint,
	"is_own" boolean DEFAULT false NOT NULL,
	"user_id" integer,
	"text" text DEFAULT '' NOT NULL,
	"rating" smallint,
	"attachments" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"reactions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"url" text,
	"status" text DEFAULT 'new' NOT NULL,
	"close_reason" text,
	"delayed_until" timestamp with time zone,
	"assigned_user_id" integer,
	"is_hidden" boolean DEFAULT false NOT NULL,
	"is_liked" boolean DEFAULT false NOT NULL,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"delivery" text DEFAULT 'received' NOT NULL,
	"delivery_error" text,
	"created_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"edited_at" timestamp with time zone,
	"first_reply_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"search" "tsvector" GENERATED ALWAYS AS (to_tsvector('russian', coalesce("text", '')) || to_tsvector('english', coalesce("text", ''))) STORED
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "messages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"space_id" integer NOT NULL,
	"chat_id" bigint NOT NULL,
	"external_id" text,
	"is_own" boolean NOT NULL,
	"user_id" integer,
	"text" text DEFAULT '' NOT NULL,
	"attachments" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"reactions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"delivery" text DEFAULT 'received' NOT NULL,
	"delivery_error" text,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"reply_to_item_id" bigint,
	"created_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"edited_at" timestamp with time zone,
	"search" "tsvector" GENERATED ALWAYS AS (to_tsvector('russian', coalesce("text", '')) || to_tsvector('english', coalesce("text", ''))) STORED
);
--> statement-breakpoint
CREATE TABLE "outbox" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "outbox_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"space_id" integer NOT NULL,
	"object_id" integer NOT NULL,
	"action" text NOT NULL,
	"item_id" bigint,
	"message_id" bigint,
	"chat_id" bigint,
	"payload" jsonb NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"done_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "posts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "posts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"space_id" integer NOT NULL,
	"object_id" integer NOT NULL,
	"external_id" text NOT NULL,
	"text" text DEFAULT '' NOT NULL,
	"url" text,
	"attachments" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"posted_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_entries" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sandbox_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"object_id" integer NOT NULL,
	"kind" text NOT NULL,
	"parent_id" bigint,
	"peer" text,
	"from_account" boolean DEFAULT false NOT NULL,
	"author_name" text NOT NULL,
	"author_id" text NOT NULL,
	"text" text DEFAULT '' NOT NULL,
	"rating" smallint,
	"reaction" text,
	"liked" boolean DEFAULT false NOT NULL,
	"hidden" boolean DEFAULT false NOT NULL,
	"deleted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"edited_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "objects" ADD COLUMN "ingest_token_digest" text;--> statement-breakpoint
ALTER TABLE "author_labels" ADD CONSTRAINT "author_labels_author_id_authors_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."authors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "authors" ADD CONSTRAINT "authors_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_tags" ADD CONSTRAINT "chat_tags_chat_id_chats_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."chats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chats" ADD CONSTRAINT "chats_object_id_objects_id_fk" FOREIGN KEY ("object_id") REFERENCES "public"."objects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "item_tags" ADD CONSTRAINT "item_tags_item_id_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "items" ADD CONSTRAINT "items_object_id_objects_id_fk" FOREIGN KEY ("object_id") REFERENCES "public"."objects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_chat_id_chats_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."chats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_object_id_objects_id_fk" FOREIGN KEY ("object_id") REFERENCES "public"."objects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_entries" ADD CONSTRAINT "sandbox_entries_object_id_objects_id_fk" FOREIGN KEY ("object_id") REFERENCES "public"."objects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activity_space_at_idx" ON "activity" USING btree ("space_id","at");--> statement-breakpoint
CREATE INDEX "activity_item_idx" ON "activity" USING btree ("item_id");--> statement-breakpoint
CREATE INDEX "author_labels_label_idx" ON "author_labels" USING btree ("label_id");--> statement-breakpoint
CREATE UNIQUE INDEX "authors_identity_key" ON "authors" USING btree ("space_id","provider","external_id");--> statement-breakpoint
CREATE INDEX "chat_tags_tag_idx" ON "chat_tags" USING btree ("tag_id","chat_id");--> statement-breakpoint
CREATE UNIQUE INDEX "chats_external_key" ON "chats" USING btree ("object_id","external_id");--> statement-breakpoint
CREATE INDEX "chats_queue_idx" ON "chats" USING btree ("space_id","status","last_message_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "chats_object_idx" ON "chats" USING btree ("space_id","object_id","last_message_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "chats_space_last_idx" ON "chats" USING btree ("space_id","last_message_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "inbox_counters_space_idx" ON "inbox_counters" USING btree ("space_id");--> statement-breakpoint
CREATE INDEX "item_tags_tag_idx" ON "item_tags" USING btree ("tag_id","item_id");--> statement-breakpoint
CREATE UNIQUE INDEX "items_external_key" ON "items" USING btree ("object_id","external_id");--> statement-breakpoint
CREATE INDEX "items_queue_idx" ON "items" USING btree ("space_id","status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE NOT "is_own";--> statement-breakpoint
CREATE INDEX "items_object_idx" ON "items" USING btree ("space_id","object_id","created_at" DESC NULLS LAST) WHERE NOT "is_own";--> statement-breakpoint
CREATE INDEX "items_space_created_idx" ON "items" USING btree ("space_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE NOT "is_own";--> statement-breakpoint
CREATE INDEX "items_parent_idx" ON "items" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "items_author_idx" ON "items" USING btree ("author_id");--> statement-breakpoint
CREATE INDEX "items_search_idx" ON "items" USING gin ("search");--> statement-breakpoint
CREATE UNIQUE INDEX "messages_external_key" ON "messages" USING btree ("chat_id","external_id");--> statement-breakpoint
CREATE INDEX "messages_chat_idx" ON "messages" USING btree ("chat_id","created_at","id");--> statement-breakpoint
CREATE INDEX "messages_search_idx" ON "messages" USING gin ("search");--> statement-breakpoint
CREATE INDEX "outbox_due_idx" ON "outbox" USING btree ("run_at") WHERE "state" = 'pending';--> statement-breakpoint
CREATE INDEX "outbox_object_idx" ON "outbox" USING btree ("object_id");--> statement-breakpoint
CREATE UNIQUE INDEX "posts_external_key" ON "posts" USING btree ("object_id","external_id");--> statement-breakpoint
CREATE INDEX "sandbox_entries_object_idx" ON "sandbox_entries" USING btree ("object_id","id");--> statement-breakpoint
ALTER TABLE "objects" ADD CONSTRAINT "objects_ingest_token_digest_unique" UNIQUE("ingest_token_digest");