-- Matching reads the stored counts of every completed assessment of an organization's persons
-- (issue 11, T72). need_counts is the row's last column, after responses (several KiB, on
-- overflow pages), so reading it walked every overflow page of the responses. This index holds
-- what that query reads, so it never touches the rows. PostgreSQL keeps large values out of line
-- (TOAST) and reads them only when selected, so it needs no such index.
CREATE INDEX assessments_counts_idx ON assessments (human_id, state, started_at, id, completed_at, need_counts);
