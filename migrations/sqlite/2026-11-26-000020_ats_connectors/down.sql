DROP TABLE ats_errors;
DROP TABLE ats_orders;
DROP TABLE ats_connections;
