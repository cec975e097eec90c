DROP TABLE consent_codes;
