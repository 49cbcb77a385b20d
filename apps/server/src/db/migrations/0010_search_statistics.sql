-- A longer list of lexeme frequencies for the full-text columns, so a rare word (an order number)
-- is estimated as rare and searched through the GIN index rather than by walking the newest rows.
ALTER TABLE "items" ALTER COLUMN "search" SET STATISTICS 1000;--> statement-breakpoint
ALTER TABLE "messages" ALTER COLUMN "search" SET STATISTICS 1000;
