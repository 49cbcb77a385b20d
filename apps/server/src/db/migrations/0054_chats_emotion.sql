ALTER TABLE "chats" ADD COLUMN "last_sentiment" text;--> statement-breakpoint
ALTER TABLE "chats" ADD COLUMN "last_emotion" text;--> statement-breakpoint
UPDATE "chats" SET "last_sentiment" = m."sentiment", "last_emotion" = m."emotion"
FROM (
  SELECT DISTINCT ON ("chat_id") "chat_id", "sentiment", "emotion" FROM "messages"
  WHERE NOT "is_own" ORDER BY "chat_id", "created_at" DESC, "id" DESC
) AS m
WHERE m."chat_id" = "chats"."id";
