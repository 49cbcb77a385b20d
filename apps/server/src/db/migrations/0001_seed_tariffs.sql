-- Standard tariffs (ids 1, 2, 10) and one special tariff (SPEC §9: ids 1, 2, 10 are standard; others special).
-- Limits are data: NULL means unlimited.
INSERT INTO "tariffs" ("id", "name", "max_users", "max_accounts") VALUES
  (1, 'Start', 3, 5),
  (2, 'Business', 10, 20),
  (10, 'Trial', 5, 10),
  (20, 'Enterprise', NULL, NULL)
ON CONFLICT ("id") DO NOTHING;
