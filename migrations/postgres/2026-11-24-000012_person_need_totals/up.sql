-- T85 (issue 11): the need counts of a membership's visible completed assessments, summed, as the
-- assessments' own `need_counts` JSON ({"model", "responses", "exposure", "chosen"}). Written with
-- the summary (they change together); a page of matches reads one short row per person. NULL
-- for rows written before: matching sums the assessments' counts for those.
ALTER TABLE persons ADD COLUMN need_totals TEXT;
