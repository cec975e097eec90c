DROP INDEX persons_org_results_idx;
DROP TABLE profiles;
DROP TABLE assessments;
