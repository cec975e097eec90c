DROP INDEX ats_orders_key_idx;
