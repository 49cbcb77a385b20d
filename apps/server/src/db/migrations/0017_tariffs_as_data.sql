ALTER TABLE "tariffs" ADD COLUMN "prices" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "tariffs" ADD COLUMN "features" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "tariffs" ADD COLUMN "is_public" boolean DEFAULT true NOT NULL;--> statement-breakpoint
-- Tariffs as data: prices per period (SPEC §9: 30 / 180 / 365 days) and the space features each allows.
-- The instance operator edits rows (npm run admin -- tariffs); ids 1, 2, 10 stay the standard ones.
UPDATE "tariffs" SET
  "prices" = '{"RUB":{"30":1990,"180":10990,"365":19900},"USD":{"30":29,"180":159,"365":290}}',
  "features" = '["issues","labels","templates","user_workinghours","otp_required","subscriptions"]'
WHERE "id" = 1;
--> statement-breakpoint
UPDATE "tariffs" SET
  "prices" = '{"RUB":{"30":4990,"180":26990,"365":49900},"USD":{"30":69,"180":379,"365":690}}',
  "features" = '["issues","labels","templates","user_workinghours","otp_required","subscriptions","macros","reports","audit","analytics","random","bots","ai"]'
WHERE "id" = 2;
--> statement-breakpoint
UPDATE "tariffs" SET
  "is_public" = false,
  "features" = '["issues","labels","templates","user_workinghours","otp_required","subscriptions","macros","reports","audit","analytics","random","bots","ai"]'
WHERE "id" = 10;
--> statement-breakpoint
UPDATE "tariffs" SET
  "prices" = '{"RUB":{"30":14990,"180":80990,"365":149900},"USD":{"30":199,"180":1090,"365":1990}}',
  "features" = '["issues","labels","templates","user_workinghours","otp_required","subscriptions","macros","reports","audit","analytics","random","bots","ai","csi_menu","qa","youscan"]'
WHERE "id" = 20;
