-- D42 (issue 12): the past archived periods of a membership that a reactivation ended, as a JSON
-- array of [from, until] RFC 3339 pairs, oldest first. What the person took inside one of them
-- stays invisible to the organization unless the person shares their existing profile.
ALTER TABLE persons ADD COLUMN inactive_periods TEXT NOT NULL DEFAULT '[]';
