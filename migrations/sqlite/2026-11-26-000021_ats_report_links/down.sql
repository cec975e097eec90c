DROP TABLE ats_report_openings;
DROP INDEX ats_orders_report_token_idx;
ALTER TABLE ats_orders DROP COLUMN report_token_hash;
