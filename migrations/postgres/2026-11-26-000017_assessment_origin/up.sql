-- D51 (T128): every assessment records the organization whose invitation started it (the
-- organization of the membership the admin API started it for). Visibility compares it with the
-- membership's organization.
ALTER TABLE assessments ADD COLUMN origin_org_id uuid;

-- Existing assessments: the organization whose invitation the human accepted last, at or before
-- the assessment started.
UPDATE assessments a SET origin_org_id = (
    SELECT i.org_id FROM invitations i JOIN persons p ON p.id = i.person_id
     WHERE p.human_id = a.human_id AND i.status = 'accepted' AND i.accepted_at <= a.started_at
     ORDER BY i.accepted_at DESC, i.id DESC LIMIT 1);
-- Else, a human with a single membership: that membership's organization (the only one the
-- assessment can have been started for). Anything else stays unknown: visible only to
-- memberships the person established herself, or through her consent.
UPDATE assessments a SET origin_org_id = (SELECT min(p.org_id::text)::uuid FROM persons p WHERE p.human_id = a.human_id)
 WHERE a.origin_org_id IS NULL AND (SELECT count(*) FROM persons p WHERE p.human_id = a.human_id) = 1;

-- The stored summaries of memberships created by import alone that do not share an earlier
-- profile: they now count the assessments started for their own organization only (up to
-- archivedAt). The summed need counts of a changed summary are dropped (matching sums the
-- assessments' own counts until the next change writes them again), and updatedAt moves so a
-- sync by updatedAfter sees the change.
WITH s AS (
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
     WHERE p.joined_via = 'api' AND NOT p.shared_existing_profile AND p.assessment_status <> 'not_started'
)
UPDATE persons p
   SET assessment_count = s.n,
       assessment_completed_at = s.last,
       assessment_status = CASE WHEN s.n > 0 THEN 'completed' WHEN s.running THEN 'in_progress' ELSE 'not_started' END,
       need_totals = NULL,
       updated_at = date_trunc('milliseconds', now())
  FROM s
 WHERE p.id = s.id
   AND (s.n <> p.assessment_count
        OR p.assessment_status <> CASE WHEN s.n > 0 THEN 'completed' WHEN s.running THEN 'in_progress' ELSE 'not_started' END);
