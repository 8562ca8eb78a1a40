-- Fair use (issue 36): the per-cycle counters start from the daily usage already recorded in each subscription's
-- current period, so a data cap or a tier does not start again from zero on the day this version is installed.
-- Daily rows are per UTC day: the period's first day is counted whole (as the data cap counted it before).
INSERT INTO "usage_cycle_counters" ("subscription_id", "cycle_start", "input_octets", "output_octets")
SELECT s."id", s."current_period_start", sum(d."input_octets"), sum(d."output_octets")
FROM "subscriptions" s
JOIN "radius_usage_daily" d ON d."subscription_id" = s."id"
  AND d."day" >= (s."current_period_start" AT TIME ZONE 'UTC')::date
WHERE s."current_period_start" IS NOT NULL
GROUP BY s."id", s."current_period_start"
ON CONFLICT ("subscription_id", "cycle_start") DO NOTHING;
