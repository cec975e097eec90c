-- D51 (T128): every assessment records the organization whose invitation started it (see the
-- PostgreSQL migration for the backfill's rules).
ALTER TABLE assessments ADD COLUMN origin_org_id TEXT;

UPDATE assessments SET origin_org_id = (
    SELECT i.org_id FROM invitations i JOIN persons p ON p.id = i.person_id
     WHERE p.human_id = assessments.human_id AND i.status = 'accepted' AND i.accepted_at <= assessments.started_at
     ORDER BY i.accepted_at DESC, i.id DESC LIMIT 1);
UPDATE assessments SET origin_org_id = (SELECT min(p.org_id) FROM persons p WHERE p.human_id = assessments.human_id)
 WHERE origin_org_id IS NULL AND (SELECT count(*) FROM persons p WHERE p.human_id = assessments.human_id) = 1;

CREATE TEMP TABLE d51_summaries AS
SELECT p.id,
       (SELECT count(*) FROM assessments a
         WHERE a.human_id = p.human_id AND a.origin_org_id = p.org_id AND a.state = 'completed'
           AND (p.archived_at IS NULL OR a.completed_at <= p.archived_at)) AS n,
       (SELECT max(a.completed_at) FROM assessments a
         WHERE a.human_id = p.human_id AND a.origin_org_id = p.org_id AND a.state = 'completed'
           AND (p.archived_at IS NULL OR a.completed_at <= p.archived_at)) AS last,
       EXISTS (SELECT 1 FROM assessments a
         WHERE a.human_id = p.human_id AND a.origin_org_id = p.org_id AND a.state = 'in_progress'
           AND (p.archived_at IS NULL OR a.started_at <= p.archived_at)) AS running
  FROM persons p
 WHERE p.joined_via = 'api' AND NOT p.shared_existing_profile AND p.assessment_status <> 'not_started';

UPDATE persons
   SET assessment_count = (SELECT s.n FROM d51_summaries s WHERE s.id = persons.id),
       assessment_completed_at = (SELECT s.last FROM d51_summaries s WHERE s.id = persons.id),
       assessment_status = (SELECT CASE WHEN s.n > 0 THEN 'completed' WHEN s.running THEN 'in_progress' ELSE 'not_started' END
                              FROM d51_summaries s WHERE s.id = persons.id),
       need_totals = NULL,
       updated_at = strftime('%Y-%m-%dT%H:%M:%f000Z', 'now')
 WHERE id IN (SELECT s.id FROM d51_summaries s JOIN persons q ON q.id = s.id
               WHERE s.n <> q.assessment_count
                  OR q.assessment_status <> CASE WHEN s.n > 0 THEN 'completed' WHEN s.running THEN 'in_progress' ELSE 'not_started' END);

DROP TABLE d51_summaries;
