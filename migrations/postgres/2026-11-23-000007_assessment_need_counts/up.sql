-- Per-need exposure and choice counts of a completed assessment (JSON {"responses": n, "needs":
-- {"need id": [exposure, chosen]}}), written at completion, so that matching reads these instead
-- of every response (issue 11). NULL for assessments completed before: scored from responses.
ALTER TABLE assessments ADD COLUMN need_counts text;
