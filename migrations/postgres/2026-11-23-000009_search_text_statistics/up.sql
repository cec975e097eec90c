-- q= on a large organization (issue 11, T73): with the default statistics target (100) the
-- histogram of persons.search_text has 101 entries, so whether a pattern that matches 2 % of
-- the persons appears in it is luck of ANALYZE's sample. When it does not, the planner estimates
-- 100 rows, reads all 40,000 matches through the trigram index and sorts them (131 ms at
-- 1,000,000 persons) instead of walking the newest persons until 25 match (2 ms). 1,000 entries
-- make the estimate of such patterns reliable, at the cost of a larger sample when analyzing.
ALTER TABLE persons ALTER COLUMN search_text SET STATISTICS 1000;
