DROP INDEX assessments_counts_idx;
