-- The reference for `POST /api/v1/persons` on PostgreSQL (issue 11): the rows one import with one
-- subscribed endpoint writes (a human, a person, its person.created outbox event and the
-- endpoint's delivery) in one transaction, in three statements, nothing read. Run by `make bench` with
-- pgbench -n -c 16 -j 2 -M prepared -D org=ORG -D ep=ENDPOINT. A random 48-bit number and the
-- client id keep emails unique.
\set r random(1, 281474976710655)
BEGIN;
WITH h AS (
  INSERT INTO humans (id, email, created_at)
    VALUES (gen_random_uuid(), 'pgb' || :client_id || '.' || :r || '@bench.example', now())
    RETURNING id, email)
INSERT INTO persons (id, org_id, human_id, email, status, label_candidate, label_employee, tags,
    joined_via, shared_existing_profile, assessment_status, assessment_count, member_since,
    updated_at, search_text)
  SELECT gen_random_uuid(), :org::uuid, h.id, h.email, 'active', true, false, '[]', 'api', false,
    'not_started', 0, now(), now(), h.email
  FROM h;
INSERT INTO outbox_events (id, org_id, event_type, data, created_at)
  VALUES (gen_random_uuid(), :org::uuid, 'person.created', repeat('x', 420), now());
INSERT INTO deliveries (id, endpoint_id, org_id, event_type, payload, status, attempts,
    next_attempt_at, created_at)
  VALUES (gen_random_uuid(), :ep::uuid, :org::uuid, 'person.created', repeat('x', 560), 'pending', 0, now(),
    now());
END;
