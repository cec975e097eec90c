//! The rows of persons and teams (the stored periods and search text with them), and their conversions to and from the domain.
//! A row that does not parse back (corrupt data) is a [`StoreError::Internal`], never a panic.

use super::*;
use talent_domain::person::{ArchiveReason, Period, PersonStatus};
use talent_domain::results::{AssessmentStatus, AssessmentSummary};
use talent_domain::timefmt;

#[derive(Queryable, Selectable, Insertable, AsChangeset, Clone, Debug)]
#[diesel(table_name = persons, treat_none_as_null = true, treat_none_as_default_value = false)]
pub struct PersonRow {
    pub(crate) id: DbUuid,
    pub(crate) org_id: DbUuid,
    pub(crate) human_id: DbUuid,
    pub(crate) email: String,
    pub(crate) first_name: Option<String>,
    pub(crate) last_name: Option<String>,
    pub(crate) external_id: Option<String>,
    pub(crate) status: String,
    pub(crate) archive_reason: Option<String>,
    pub(crate) label_candidate: bool,
    pub(crate) label_employee: bool,
    pub(crate) tags: String,
    pub(crate) joined_via: String,
    pub(crate) shared_existing_profile: bool,
    pub(crate) assessment_status: String,
    pub(crate) assessment_completed_at: Option<DbTime>,
    pub(crate) assessment_count: i64,
    pub(crate) member_since: DbTime,
    pub(crate) updated_at: DbTime,
    pub(crate) archived_at: Option<DbTime>,
    pub(crate) search_text: String,
    pub(crate) inactive_periods: String,
    pub(crate) need_totals: Option<String>,
}

/// `persons.inactive_periods` (D42): `[[from, until], ...]` in RFC 3339.
pub fn encode_periods(v: &[Period]) -> String {
    if v.is_empty() {
        return "[]".into();
    }
    let pairs: Vec<[String; 2]> = v.iter().map(|g| [timefmt::format(g.from), timefmt::format(g.until)]).collect();
    serde_json::to_string(&pairs).unwrap_or_else(|_| "[]".into())
}

/// Parses [`encode_periods`]' text.
pub fn decode_periods(s: &str) -> Result<Vec<Period>, StoreError> {
    if s == "[]" {
        return Ok(vec![]);
    }
    let pairs: Vec<[String; 2]> = serde_json::from_str(s).map_err(|_| corrupt("persons.inactive_periods"))?;
    pairs
        .iter()
        .map(|[a, b]| match (timefmt::parse(a), timefmt::parse(b)) {
            (Some(from), Some(until)) => Ok(Period { from, until }),
            _ => Err(corrupt("persons.inactive_periods")),
        })
        .collect()
}

/// The lower-cased text `q` searches (first name, last name, email).
pub fn search_text(p: &Person) -> String {
    search_text_of(
        p.first_name.as_ref().map(|n| n.as_str()),
        p.last_name.as_ref().map(|n| n.as_str()),
        p.email.as_str(),
    )
}

/// [`search_text`] of a person's stored values (names as stored, the address).
pub fn search_text_of(first_name: Option<&str>, last_name: Option<&str>, email: &str) -> String {
    format!("{} {} {}", first_name.unwrap_or(""), last_name.unwrap_or(""), email).to_lowercase()
}

impl PersonRow {
    /// The columns of `persons`, in the order of [`PersonRow::copy_fields`]: for bulk loads with
    /// PostgreSQL's `COPY` (the bench's ten million persons).
    pub const COPY_COLUMNS: &'static str = "id, org_id, human_id, email, first_name, last_name, external_id, status, \
        archive_reason, label_candidate, label_employee, tags, joined_via, shared_existing_profile, \
        assessment_status, assessment_completed_at, assessment_count, member_since, updated_at, archived_at, \
        search_text, inactive_periods, need_totals";

    /// The row's values in PostgreSQL's text form (times as RFC 3339, booleans `t`/`f`), `None`
    /// for NULL, in the order of [`PersonRow::COPY_COLUMNS`].
    pub fn copy_fields(&self) -> [Option<String>; 23] {
        let t = |v: &DbTime| v.0.format(&time::format_description::well_known::Rfc3339).ok();
        let b = |v: bool| Some(if v { "t" } else { "f" }.to_string());
        [
            Some(self.id.0.to_string()),
            Some(self.org_id.0.to_string()),
            Some(self.human_id.0.to_string()),
            Some(self.email.clone()),
            self.first_name.clone(),
            self.last_name.clone(),
            self.external_id.clone(),
            Some(self.status.clone()),
            self.archive_reason.clone(),
            b(self.label_candidate),
            b(self.label_employee),
            Some(self.tags.clone()),
            Some(self.joined_via.clone()),
            b(self.shared_existing_profile),
            Some(self.assessment_status.clone()),
            self.assessment_completed_at.as_ref().and_then(t),
            Some(self.assessment_count.to_string()),
            t(&self.member_since),
            t(&self.updated_at),
            self.archived_at.as_ref().and_then(t),
            Some(self.search_text.clone()),
            Some(self.inactive_periods.clone()),
            self.need_totals.clone(),
        ]
    }
}

impl From<&Person> for PersonRow {
    fn from(p: &Person) -> Self {
        let tags: Vec<(String, String)> = p.tags.iter().map(|t| (t.id.to_string(), t.name.clone())).collect();
        PersonRow {
            id: DbUuid(p.id.0),
            org_id: DbUuid(p.org_id.0),
            human_id: DbUuid(p.human_id.0),
            email: p.email.as_str().to_string(),
            first_name: p.first_name.as_ref().map(|n| n.as_str().to_string()),
            last_name: p.last_name.as_ref().map(|n| n.as_str().to_string()),
            external_id: p.external_id.as_ref().map(|n| n.as_str().to_string()),
            status: p.status.as_str().to_string(),
            archive_reason: p.archive_reason.map(|r| r.as_str().to_string()),
            label_candidate: p.labels.candidate,
            label_employee: p.labels.employee,
            tags: serde_json::to_string(&tags).unwrap_or_else(|_| "[]".into()),
            joined_via: p.joined_via.as_str().to_string(),
            shared_existing_profile: p.shared_existing_profile,
            assessment_status: p.assessment.status.as_str().to_string(),
            assessment_completed_at: p.assessment.completed_at.map(DbTime),
            assessment_count: i64::from(p.assessment.count),
            member_since: DbTime(p.member_since),
            updated_at: DbTime(p.updated_at),
            archived_at: p.archived_at.map(DbTime),
            search_text: search_text(p),
            inactive_periods: encode_periods(&p.inactive_periods),
            need_totals: p.assessment.totals.as_ref().and_then(|t| need_counts_json(t).ok()),
        }
    }
}

impl TryFrom<PersonRow> for Person {
    type Error = StoreError;
    fn try_from(r: PersonRow) -> Result<Self, StoreError> {
        let tags: Vec<(String, String)> = serde_json::from_str(&r.tags).map_err(|_| corrupt("persons.tags"))?;
        let tags = tags
            .into_iter()
            .map(|(id, name)| Ok(Tag { id: id.parse().map_err(|_| corrupt("persons.tags id"))?, name }))
            .collect::<Result<Vec<_>, StoreError>>()?;
        let name = |v: Option<String>, f: &str| -> Result<Option<PersonName>, StoreError> {
            v.map(|s| PersonName::parse(&s).map_err(|_| corrupt(f))).transpose()
        };
        Ok(Person {
            id: PersonId(r.id.0),
            org_id: OrgId(r.org_id.0),
            human_id: HumanId(r.human_id.0),
            email: Email::from_stored(&r.email).map_err(|_| corrupt("persons.email"))?,
            first_name: name(r.first_name, "persons.first_name")?,
            last_name: name(r.last_name, "persons.last_name")?,
            external_id: r
                .external_id
                .map(|s| ExternalId::parse(&s).map_err(|_| corrupt("persons.external_id")))
                .transpose()?,
            status: PersonStatus::parse(&r.status).map_err(|_| corrupt("persons.status"))?,
            archive_reason: match r.archive_reason {
                Some(s) => Some(ArchiveReason::parse(&s).ok_or_else(|| corrupt("persons.archive_reason"))?),
                None => None,
            },
            labels: Labels { candidate: r.label_candidate, employee: r.label_employee },
            tags,
            joined_via: JoinedVia::parse(&r.joined_via).ok_or_else(|| corrupt("persons.joined_via"))?,
            shared_existing_profile: r.shared_existing_profile,
            assessment: AssessmentSummary {
                status: AssessmentStatus::parse(&r.assessment_status)
                    .map_err(|_| corrupt("persons.assessment_status"))?,
                completed_at: r.assessment_completed_at.map(|t| t.0),
                count: u32::try_from(r.assessment_count).map_err(|_| corrupt("persons.assessment_count"))?,
                totals: r.need_totals.as_deref().map(parse_need_counts).transpose()?,
            },
            member_since: r.member_since.0,
            updated_at: r.updated_at.0,
            archived_at: r.archived_at.map(|t| t.0),
            inactive_periods: decode_periods(&r.inactive_periods)?,
        })
    }
}

#[derive(Queryable, Selectable, Insertable, Clone, Debug)]
#[diesel(table_name = teams, treat_none_as_default_value = false)]
pub struct TeamRow {
    pub(crate) id: DbUuid,
    pub(crate) org_id: DbUuid,
    pub(crate) name: String,
    pub(crate) created_at: DbTime,
}

impl From<TeamRow> for Team {
    fn from(r: TeamRow) -> Team {
        Team { id: TeamId(r.id.0), org_id: OrgId(r.org_id.0), name: r.name, created_at: r.created_at.0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use diesel::query_builder::QueryFragment;

    /// Whether PostgreSQL keeps the prepared statement of `q` per connection (T71).
    fn cached<Q: QueryFragment<diesel::pg::Pg>>(q: Q) -> bool {
        q.is_safe_to_cache_prepared(&diesel::pg::Pg).expect("walks")
    }

    /// T71: the inserts of an import are prepared once per connection, with `None` fields as
    /// well (diesel never caches an insert whose values may be `DEFAULT`).
    #[test]
    fn the_inserts_of_an_import_are_prepared_statements_postgres_keeps() {
        let now = DbTime(time::OffsetDateTime::UNIX_EPOCH);
        let id = DbUuid(uuid::Uuid::nil());
        let person = PersonRow {
            id,
            org_id: id,
            human_id: id,
            email: "a@example.com".into(),
            first_name: None,
            last_name: Some("Doe".into()),
            external_id: None,
            status: "active".into(),
            archive_reason: None,
            label_candidate: true,
            label_employee: false,
            tags: "[]".into(),
            joined_via: "api".into(),
            shared_existing_profile: false,
            assessment_status: "not_started".into(),
            assessment_completed_at: None,
            assessment_count: 0,
            member_since: now,
            updated_at: now,
            archived_at: None,
            search_text: "a@example.com".into(),
            inactive_periods: "[]".into(),
            need_totals: None,
        };
        let event = EventRow {
            id,
            org_id: id,
            event_type: "person.created".into(),
            data: "{}".into(),
            created_at: now,
            request_id: None,
        };
        let delivery = DeliveryRow {
            id,
            endpoint_id: id,
            org_id: id,
            event_type: "person.created".into(),
            payload: "{}".into(),
            status: "pending".into(),
            attempts: 0,
            next_attempt_at: Some(now),
            last_attempt_at: None,
            last_response_status: None,
            last_error: None,
            claimed_until: None,
            created_at: now,
            request_id: None,
            event_id: Some(id),
        };
        assert!(cached(diesel::insert_into(persons::table).values(person)));
        assert!(cached(diesel::insert_into(outbox_events::table).values(event)));
        assert!(cached(diesel::insert_into(deliveries::table).values(delivery)));
    }
}
