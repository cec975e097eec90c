-- An ATS's retry looks its open order up by (connection, ATS key, test) with the open statuses as
-- parameters, which the partial unique index of open orders cannot serve (a planner cannot prove
-- the parameters match its predicate): without this index the lookup read every order of the
-- connection, so orders slowed as they accumulated.
CREATE INDEX ats_orders_key_idx ON ats_orders (connection_id, ats_key, test_id);
