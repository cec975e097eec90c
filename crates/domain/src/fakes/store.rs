//! The fake store: every row in one [`FakeState`]; a write transaction works on a copy, holds the
//! write turn, and replaces the state on commit, so a failed use case leaves nothing behind and
//! two writes never undo each other, like a database's transactions.

use crate::errors::StoreError;
use crate::ids::*;
use crate::model::*;
use crate::ports::*;
use crate::values::*;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use time::OffsetDateTime;

/// All rows of the fake store.
#[derive(Clone, Default, Debug)]
pub struct FakeState {
    /// Organizations.
    pub orgs: Vec<Organization>,
    pub users: Vec<User>,
    pub keys: Vec<ApiKey>,
    /// Humans (id, email).
    pub humans: Vec<(HumanId, Email)>,
    pub persons: Vec<Person>,
    /// Tag catalogue.
    pub tags: Vec<(OrgId, Tag)>,
    pub teams: Vec<Team>,
    /// Team members.
    pub team_members: Vec<(TeamId, PersonId)>,
    /// Outbox.
    pub events: Vec<OutboxEvent>,
    /// Feed sequences of numbered events (D48).
    pub event_sequences: Vec<(EventId, u64)>,
    /// The sequencer's counters: the last number given in each organization (D56).
    pub last_sequence: std::collections::HashMap<OrgId, u64>,
    /// Idempotency records.
    pub idem: Vec<IdempotencyRecord>,
    pub settings: Vec<(String, String)>,
    pub assessments: Vec<Assessment>,
    /// Stored need counts of completed assessments.
    pub need_counts: Vec<(AssessmentId, crate::assessment::NeedCounts)>,
    pub profiles: Vec<Profile>,
    pub invitations: Vec<crate::invitation::Invitation>,
    /// Email outbox.
    pub emails: Vec<EmailRecord>,
    /// One-time codes (D43).
    pub consent_codes: Vec<crate::consent::ConsentCode>,
    /// Webhook endpoints.
    pub endpoints: Vec<crate::webhook::Endpoint>,
    /// Deliveries with their claim.
    pub deliveries: Vec<(crate::webhook::Delivery, Option<OffsetDateTime>)>,
    pub attempts: Vec<(DeliveryId, OffsetDateTime, crate::webhook::AttemptOutcome)>,
    /// The dashboard's sign-in links (issue 18).
    pub sign_in_links: Vec<crate::dashboard::SignInLink>,
    /// The dashboard's sessions (issue 18).
    pub sessions: Vec<crate::dashboard::Session>,
}

/// The fake store.
#[derive(Clone, Default)]
pub struct FakeStore {
    /// Committed state.
    pub state: Arc<Mutex<FakeState>>,
    /// Runs when a write transaction begins, before its closure: stands for the wait for a
    /// connection or a lock (tests move a clock in it).
    pub on_begin: Option<Arc<dyn Fn() + Send + Sync>>,
    /// Held by the write transaction in progress: write transactions run one at a time, as the
    /// databases' locks make them (without it two concurrent writes would each commit their own
    /// copy and the later would undo the earlier).
    writing: Arc<std::sync::atomic::AtomicBool>,
}

/// The write turn of a [`FakeStore`], given back on drop (also when the transaction panics or
/// its future is dropped).
struct WriteTurn<'a>(&'a std::sync::atomic::AtomicBool);

impl WriteTurn<'_> {
    /// Waits (yielding to the executor) until no other write transaction runs.
    async fn take(flag: &std::sync::atomic::AtomicBool) -> WriteTurn<'_> {
        std::future::poll_fn(|cx| {
            if flag.compare_exchange(false, true, Ordering::AcqRel, Ordering::Acquire).is_ok() {
                std::task::Poll::Ready(())
            } else {
                cx.waker().wake_by_ref();
                std::task::Poll::Pending
            }
        })
        .await;
        WriteTurn(flag)
    }
}

impl Drop for WriteTurn<'_> {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Release);
    }
}

impl FakeStore {
    /// A copy of the committed state.
    pub fn snapshot(&self) -> FakeState {
        self.state.lock().map(|s| s.clone()).unwrap_or_default()
    }
}

/// A transaction of the fake store: a working copy.
pub struct FakeTx {
    s: FakeState,
}

fn ok<'a, T: Send + 'a>(v: T) -> BoxFuture<'a, StoreResult<T>> {
    Box::pin(std::future::ready(Ok(v)))
}

impl OrgRepo for FakeTx {
    fn insert_org<'a>(&'a mut self, org: &'a Organization) -> BoxFuture<'a, StoreResult<()>> {
        self.s.orgs.push(org.clone());
        ok(())
    }
    fn update_org<'a>(&'a mut self, org: &'a Organization) -> BoxFuture<'a, StoreResult<()>> {
        for o in self.s.orgs.iter_mut().filter(|o| o.id == org.id) {
            *o = org.clone();
        }
        ok(())
    }
    fn get_org(&mut self, id: OrgId) -> BoxFuture<'_, StoreResult<Option<Organization>>> {
        ok(self.s.orgs.iter().find(|o| o.id == id).cloned())
    }
    fn lock_org(&mut self, id: OrgId) -> BoxFuture<'_, StoreResult<Option<Organization>>> {
        self.get_org(id)
    }
    fn find_org_by_name<'a>(&'a mut self, name: &'a str) -> BoxFuture<'a, StoreResult<Option<Organization>>> {
        ok(self.s.orgs.iter().find(|o| o.company_name == name).cloned())
    }
    fn list_orgs(&mut self, before: Option<OrgId>, limit: u32) -> BoxFuture<'_, StoreResult<Vec<Organization>>> {
        let mut v: Vec<Organization> =
            self.s.orgs.iter().filter(|o| before.is_none_or(|b| o.id.0 < b.0)).cloned().collect();
        v.sort_by_key(|o| std::cmp::Reverse(o.id.0));
        v.truncate(limit as usize);
        ok(v)
    }
    fn count_active_persons(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<u32>> {
        ok(self.s.persons.iter().filter(|p| p.org_id == org && p.status == PersonStatus::Active).count() as u32)
    }
    fn insert_user<'a>(&'a mut self, user: &'a User) -> BoxFuture<'a, StoreResult<()>> {
        if self.s.users.iter().any(|u| u.org_id == user.org_id && u.email == user.email) {
            return Box::pin(std::future::ready(Err(StoreError::UniqueViolation)));
        }
        self.s.users.push(user.clone());
        ok(())
    }
    fn get_user(&mut self, id: UserId) -> BoxFuture<'_, StoreResult<Option<User>>> {
        ok(self.s.users.iter().find(|u| u.id == id).cloned())
    }
    fn list_users_of_org(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<User>>> {
        ok(self.s.users.iter().filter(|u| u.org_id == org).cloned().collect())
    }
    fn update_user_role(&mut self, id: UserId, role: OrgRole) -> BoxFuture<'_, StoreResult<()>> {
        for u in self.s.users.iter_mut().filter(|u| u.id == id) {
            u.role = role;
        }
        ok(())
    }
    fn delete_user(&mut self, id: UserId) -> BoxFuture<'_, StoreResult<u64>> {
        let before = self.s.keys.len();
        self.s.keys.retain(|k| k.user_id != id);
        self.s.sessions.retain(|s| s.user_id != id);
        self.s.users.retain(|u| u.id != id);
        ok((before - self.s.keys.len()) as u64)
    }
    fn insert_api_key<'a>(&'a mut self, key: &'a ApiKey) -> BoxFuture<'a, StoreResult<()>> {
        self.s.keys.push(key.clone());
        ok(())
    }
    fn get_api_key(&mut self, id: ApiKeyId) -> BoxFuture<'_, StoreResult<Option<ApiKey>>> {
        ok(self.s.keys.iter().find(|k| k.id == id).cloned())
    }
    fn list_api_keys_of_user(&mut self, user: UserId) -> BoxFuture<'_, StoreResult<Vec<ApiKey>>> {
        let mut v: Vec<ApiKey> = self.s.keys.iter().filter(|k| k.user_id == user).cloned().collect();
        v.sort_by_key(|k| (k.created_at, k.id.0));
        ok(v)
    }
    fn list_api_keys_of_org(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<ApiKey>>> {
        let users: Vec<UserId> = self.s.users.iter().filter(|u| u.org_id == org).map(|u| u.id).collect();
        let mut v: Vec<ApiKey> = self.s.keys.iter().filter(|k| users.contains(&k.user_id)).cloned().collect();
        v.sort_by_key(|k| std::cmp::Reverse((k.created_at, k.id.0)));
        ok(v)
    }
    fn revoke_api_key(&mut self, id: ApiKeyId, at: OffsetDateTime) -> BoxFuture<'_, StoreResult<()>> {
        for k in self.s.keys.iter_mut().filter(|k| k.id == id) {
            k.revoked_at = Some(at);
        }
        ok(())
    }
    fn find_key_context<'a>(&'a mut self, prefix: &'a str) -> BoxFuture<'a, StoreResult<Option<KeyContext>>> {
        let ctx = self.s.keys.iter().find(|k| k.prefix == prefix).and_then(|k| {
            let u = self.s.users.iter().find(|u| u.id == k.user_id)?;
            let o = self.s.orgs.iter().find(|o| o.id == k.org_id)?;
            Some(KeyContext { key: k.clone(), role: u.role, org: o.clone() })
        });
        ok(ctx)
    }
}

impl PersonRepo for FakeTx {
    fn ensure_human<'a>(
        &'a mut self,
        new_id: HumanId,
        email: &'a Email,
        _now: OffsetDateTime,
    ) -> BoxFuture<'a, StoreResult<HumanId>> {
        if let Some((id, _)) = self.s.humans.iter().find(|(_, e)| e == email) {
            return ok(*id);
        }
        self.s.humans.push((new_id, email.clone()));
        ok(new_id)
    }
    fn find_human_by_email<'a>(&'a mut self, email: &'a Email) -> BoxFuture<'a, StoreResult<Option<HumanId>>> {
        ok(self.s.humans.iter().find(|(_, e)| e == email).map(|(id, _)| *id))
    }
    fn find_person_by_email<'a>(
        &'a mut self,
        org: OrgId,
        email: &'a Email,
    ) -> BoxFuture<'a, StoreResult<Option<Person>>> {
        ok(self.s.persons.iter().find(|p| p.org_id == org && &p.email == email).cloned())
    }
    fn get_person(&mut self, org: OrgId, id: PersonId) -> BoxFuture<'_, StoreResult<Option<Person>>> {
        ok(self.s.persons.iter().find(|p| p.org_id == org && p.id == id).cloned())
    }
    fn get_person_any(&mut self, id: PersonId) -> BoxFuture<'_, StoreResult<Option<Person>>> {
        ok(self.s.persons.iter().find(|p| p.id == id).cloned())
    }
    fn insert_person<'a>(&'a mut self, p: &'a Person) -> BoxFuture<'a, StoreResult<()>> {
        if self.s.persons.iter().any(|x| x.org_id == p.org_id && x.email == p.email) {
            return Box::pin(std::future::ready(Err(StoreError::UniqueViolation)));
        }
        self.s.persons.push(p.clone());
        ok(())
    }
    fn update_person<'a>(&'a mut self, p: &'a Person) -> BoxFuture<'a, StoreResult<()>> {
        for x in self.s.persons.iter_mut().filter(|x| x.id == p.id) {
            *x = p.clone();
        }
        ok(())
    }
    fn resolve_tags<'a>(
        &'a mut self,
        org: OrgId,
        names: &'a [(TagName, TagId)],
        _now: OffsetDateTime,
    ) -> BoxFuture<'a, StoreResult<Vec<Tag>>> {
        let mut out = Vec::new();
        for (n, id) in names {
            let found =
                self.s.tags.iter().find(|(o, t)| *o == org && t.name.to_lowercase() == n.key()).map(|(_, t)| t.clone());
            let t = match found {
                Some(t) => t,
                None => {
                    let t = Tag { id: *id, name: n.as_str().to_string() };
                    self.s.tags.push((org, t.clone()));
                    t
                }
            };
            out.push(t);
        }
        ok(out)
    }
    fn list_persons<'a>(&'a mut self, q: &'a PersonQuery) -> BoxFuture<'a, StoreResult<Vec<Person>>> {
        let mut v: Vec<Person> = self
            .s
            .persons
            .iter()
            .filter(|p| q.org_id.is_none_or(|o| p.org_id == o))
            .filter(|p| q.status.only().is_none_or(|s| p.status == s))
            .filter(|p| q.before_id.is_none_or(|b| p.id < b))
            .filter(|p| q.email.as_ref().is_none_or(|e| &p.email == e))
            .filter(|p| {
                q.external_id.as_ref().is_none_or(|e| p.external_id.as_ref().map(|x| x.as_str()) == Some(e.as_str()))
            })
            .filter(|p| q.assessment_status.is_none_or(|s| p.assessment.status == s))
            .filter(|p| match q.label {
                None => true,
                Some(LabelFilter::Candidate) => p.labels.candidate,
                Some(LabelFilter::Employee) => p.labels.employee,
                Some(LabelFilter::Other) => !p.labels.candidate && !p.labels.employee,
            })
            .filter(|p| q.tag_key.as_ref().is_none_or(|k| p.tags.iter().any(|t| &t.name.to_lowercase() == k)))
            .filter(|p| q.updated_after.is_none_or(|u| p.updated_at > u))
            .filter(|p| {
                q.q.as_ref().is_none_or(|needle| {
                    let hay = format!(
                        "{} {} {}",
                        p.first_name.as_ref().map(|n| n.as_str()).unwrap_or(""),
                        p.last_name.as_ref().map(|n| n.as_str()).unwrap_or(""),
                        p.email.as_str()
                    )
                    .to_lowercase();
                    hay.contains(needle.as_str())
                })
            })
            .cloned()
            .collect();
        v.sort_by_key(|p| std::cmp::Reverse(p.id));
        v.truncate(q.limit as usize);
        ok(v)
    }
    fn insert_team<'a>(&'a mut self, team: &'a Team) -> BoxFuture<'a, StoreResult<()>> {
        self.s.teams.push(team.clone());
        ok(())
    }
    fn get_team(&mut self, id: TeamId) -> BoxFuture<'_, StoreResult<Option<Team>>> {
        ok(self.s.teams.iter().find(|t| t.id == id).cloned())
    }
    fn list_teams(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<(Team, u64)>>> {
        let mut v: Vec<(Team, u64)> = self
            .s
            .teams
            .iter()
            .filter(|t| t.org_id == org)
            .map(|t| (t.clone(), self.s.team_members.iter().filter(|(id, _)| *id == t.id).count() as u64))
            .collect();
        v.sort_by(|a, b| (&a.0.name, a.0.id.0).cmp(&(&b.0.name, b.0.id.0)));
        ok(v)
    }
    fn add_team_member(
        &mut self,
        team: TeamId,
        person: PersonId,
        _at: OffsetDateTime,
    ) -> BoxFuture<'_, StoreResult<()>> {
        if !self.s.team_members.contains(&(team, person)) {
            self.s.team_members.push((team, person));
        }
        ok(())
    }
    fn list_team_members(&mut self, team: TeamId) -> BoxFuture<'_, StoreResult<Vec<PersonId>>> {
        ok(self.s.team_members.iter().filter(|(t, _)| *t == team).map(|(_, p)| *p).collect())
    }
    fn remove_person_from_teams(&mut self, person: PersonId) -> BoxFuture<'_, StoreResult<u64>> {
        let before = self.s.team_members.len();
        self.s.team_members.retain(|(_, p)| *p != person);
        ok((before - self.s.team_members.len()) as u64)
    }
    fn list_person_teams(&mut self, person: PersonId) -> BoxFuture<'_, StoreResult<Vec<Team>>> {
        let mut v: Vec<Team> =
            self.s.teams.iter().filter(|t| self.s.team_members.contains(&(t.id, person))).cloned().collect();
        v.sort_by(|a, b| (&a.name, a.id.0).cmp(&(&b.name, b.id.0)));
        ok(v)
    }
    fn remove_team_member(&mut self, team: TeamId, person: PersonId) -> BoxFuture<'_, StoreResult<bool>> {
        let before = self.s.team_members.len();
        self.s.team_members.retain(|m| *m != (team, person));
        ok(before != self.s.team_members.len())
    }
}

impl InvitationRepo for FakeTx {
    fn insert_invitation<'a>(&'a mut self, i: &'a crate::invitation::Invitation) -> BoxFuture<'a, StoreResult<()>> {
        self.s.invitations.push(i.clone());
        ok(())
    }
    fn update_invitation<'a>(&'a mut self, i: &'a crate::invitation::Invitation) -> BoxFuture<'a, StoreResult<()>> {
        for x in self.s.invitations.iter_mut().filter(|x| x.id == i.id) {
            *x = i.clone();
        }
        ok(())
    }
    fn get_invitation(
        &mut self,
        org: OrgId,
        id: InvitationId,
    ) -> BoxFuture<'_, StoreResult<Option<crate::invitation::Invitation>>> {
        ok(self.s.invitations.iter().find(|i| i.org_id == org && i.id == id).cloned())
    }
    fn get_invitation_any(
        &mut self,
        id: InvitationId,
    ) -> BoxFuture<'_, StoreResult<Option<crate::invitation::Invitation>>> {
        ok(self.s.invitations.iter().find(|i| i.id == id).cloned())
    }
    fn find_invitation_by_token_hash<'a>(
        &'a mut self,
        hash: &'a [u8],
    ) -> BoxFuture<'a, StoreResult<Option<crate::invitation::Invitation>>> {
        ok(self.s.invitations.iter().find(|i| i.token_hash == hash).cloned())
    }
    fn find_pending_invitation_by_email<'a>(
        &'a mut self,
        org: OrgId,
        email: &'a Email,
        now: OffsetDateTime,
    ) -> BoxFuture<'a, StoreResult<Option<crate::invitation::Invitation>>> {
        ok(self
            .s
            .invitations
            .iter()
            .filter(|i| {
                i.org_id == org
                    && &i.email == email
                    && i.status == crate::invitation::InvitationStatus::Pending
                    && i.expires_at > now
            })
            .max_by_key(|i| i.id)
            .cloned())
    }
    fn list_invitations<'a>(
        &'a mut self,
        q: &'a InvitationQuery,
    ) -> BoxFuture<'a, StoreResult<Vec<crate::invitation::Invitation>>> {
        let now = q.now.unwrap_or(OffsetDateTime::UNIX_EPOCH);
        let mut v: Vec<_> = self
            .s
            .invitations
            .iter()
            .filter(|i| q.org_id.is_none_or(|o| i.org_id == o))
            .filter(|i| q.status.is_none_or(|s| i.status_at(now) == s))
            .filter(|i| q.variant.is_none_or(|s| i.variant == s))
            .filter(|i| q.email.as_ref().is_none_or(|e| &i.email == e))
            .filter(|i| {
                q.external_id.as_ref().is_none_or(|e| i.external_id.as_ref().map(|x| x.as_str()) == Some(e.as_str()))
            })
            .filter(|i| q.person_id.is_none_or(|p| i.person_id == Some(p)))
            .filter(|i| q.updated_after.is_none_or(|u| i.updated_at > u))
            .filter(|i| q.before_id.is_none_or(|b| i.id < b))
            .cloned()
            .collect();
        v.sort_by_key(|i| std::cmp::Reverse(i.id));
        v.truncate(q.limit as usize);
        ok(v)
    }
    fn list_due_invitations(
        &mut self,
        now: OffsetDateTime,
        limit: u32,
    ) -> BoxFuture<'_, StoreResult<Vec<InvitationId>>> {
        ok(self
            .s
            .invitations
            .iter()
            .filter(|i| i.status == crate::invitation::InvitationStatus::Pending && i.expires_at <= now)
            .take(limit as usize)
            .map(|i| i.id)
            .collect())
    }
    fn list_reminders_due(
        &mut self,
        sent_before: OffsetDateTime,
        now: OffsetDateTime,
        limit: u32,
    ) -> BoxFuture<'_, StoreResult<Vec<InvitationId>>> {
        ok(self
            .s
            .invitations
            .iter()
            .filter(|i| {
                i.status == crate::invitation::InvitationStatus::Pending
                    && i.expires_at > now
                    && i.reminder_sent_at.is_none()
                    && i.email_sent_at.is_some_and(|t| t <= sent_before)
            })
            .take(limit as usize)
            .map(|i| i.id)
            .collect())
    }
    fn expire_invitation_if_pending(
        &mut self,
        id: InvitationId,
        now: OffsetDateTime,
    ) -> BoxFuture<'_, StoreResult<bool>> {
        let mut done = false;
        for i in self.s.invitations.iter_mut().filter(|i| i.id == id) {
            done = i.expire(now);
        }
        ok(done)
    }
    fn mark_reminder_if_unset(&mut self, id: InvitationId, now: OffsetDateTime) -> BoxFuture<'_, StoreResult<bool>> {
        let mut done = false;
        for i in self.s.invitations.iter_mut().filter(|i| i.id == id && i.reminder_sent_at.is_none()) {
            i.reminder_sent_at = Some(now);
            done = true;
        }
        ok(done)
    }
    fn insert_consent_code<'a>(&'a mut self, c: &'a crate::consent::ConsentCode) -> BoxFuture<'a, StoreResult<()>> {
        self.s.consent_codes.push(c.clone());
        ok(())
    }
    fn update_consent_code<'a>(&'a mut self, c: &'a crate::consent::ConsentCode) -> BoxFuture<'a, StoreResult<()>> {
        for x in self.s.consent_codes.iter_mut().filter(|x| x.id == c.id) {
            x.tries = c.tries;
            x.used_at = c.used_at;
        }
        ok(())
    }
    fn list_consent_codes_since(
        &mut self,
        invitation: InvitationId,
        since: OffsetDateTime,
    ) -> BoxFuture<'_, StoreResult<Vec<crate::consent::ConsentCode>>> {
        ok(self
            .s
            .consent_codes
            .iter()
            .filter(|c| c.invitation_id == invitation && c.created_at > since)
            .cloned()
            .collect())
    }
    fn list_consent_codes_of_address_since<'a>(
        &'a mut self,
        org: OrgId,
        email: &'a Email,
        since: OffsetDateTime,
    ) -> BoxFuture<'a, StoreResult<Vec<crate::consent::ConsentCode>>> {
        let invitations: Vec<InvitationId> =
            self.s.invitations.iter().filter(|i| i.org_id == org && &i.email == email).map(|i| i.id).collect();
        ok(self
            .s
            .consent_codes
            .iter()
            .filter(|c| invitations.contains(&c.invitation_id) && c.created_at > since)
            .cloned()
            .collect())
    }
}

impl AssessmentRepo for FakeTx {
    fn insert_assessment<'a>(&'a mut self, a: &'a Assessment) -> BoxFuture<'a, StoreResult<()>> {
        self.s.assessments.push(a.clone());
        ok(())
    }
    fn update_assessment<'a>(&'a mut self, a: &'a Assessment) -> BoxFuture<'a, StoreResult<()>> {
        for x in self.s.assessments.iter_mut().filter(|x| x.id == a.id) {
            *x = a.clone();
        }
        ok(())
    }
    fn list_assessments_of_human(&mut self, human: HumanId) -> BoxFuture<'_, StoreResult<Vec<Assessment>>> {
        let mut v: Vec<Assessment> = self.s.assessments.iter().filter(|a| a.human_id == human).cloned().collect();
        v.sort_by_key(|a| (a.started_at, a.id.0));
        ok(v)
    }
    fn list_assessments_of_humans<'a>(
        &'a mut self,
        humans: &'a [HumanId],
    ) -> BoxFuture<'a, StoreResult<Vec<Assessment>>> {
        let mut v: Vec<Assessment> =
            self.s.assessments.iter().filter(|a| humans.contains(&a.human_id)).cloned().collect();
        v.sort_by_key(|a| (a.started_at, a.id.0));
        ok(v)
    }
    fn set_need_counts<'a>(
        &'a mut self,
        id: AssessmentId,
        counts: &'a crate::assessment::NeedCounts,
    ) -> BoxFuture<'a, StoreResult<()>> {
        self.s.need_counts.retain(|(a, _)| *a != id);
        self.s.need_counts.push((id, counts.clone()));
        ok(())
    }
    fn list_completed_counts_of_result_holders(
        &mut self,
        org: OrgId,
    ) -> BoxFuture<'_, StoreResult<Vec<CountedAssessment>>> {
        let humans: Vec<HumanId> =
            self.s.persons.iter().filter(|p| holds_results(p, org)).map(|p| p.human_id).collect();
        let counts = &self.s.need_counts;
        ok(self
            .s
            .assessments
            .iter()
            .filter(|a| humans.contains(&a.human_id) && a.state == crate::model::AssessmentState::Completed)
            .map(|a| {
                let c = counts.iter().find(|(id, _)| *id == a.id).map(|(_, c)| c.clone());
                (Assessment { responses: vec![], ..a.clone() }, c)
            })
            .collect())
    }
    fn list_persons_of_human(&mut self, human: HumanId) -> BoxFuture<'_, StoreResult<Vec<Person>>> {
        ok(self.s.persons.iter().filter(|p| p.human_id == human).cloned().collect())
    }
    fn list_persons_with_results(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<Person>>> {
        let mut v: Vec<Person> = self.s.persons.iter().filter(|p| holds_results(p, org)).cloned().collect();
        v.sort_by_key(|p| std::cmp::Reverse(p.id.0));
        ok(v)
    }
    fn list_result_holders(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<ResultHolder>>> {
        let mut v: Vec<ResultHolder> =
            self.s.persons.iter().filter(|p| holds_results(p, org)).map(ResultHolder::from).collect();
        v.sort_by_key(|h| std::cmp::Reverse(h.person_id.0));
        ok(v)
    }
    fn insert_profile<'a>(&'a mut self, p: &'a Profile) -> BoxFuture<'a, StoreResult<()>> {
        self.s.profiles.push(p.clone());
        ok(())
    }
    fn get_profile(&mut self, org: OrgId, id: ProfileId) -> BoxFuture<'_, StoreResult<Option<Profile>>> {
        ok(self.s.profiles.iter().find(|p| p.org_id == org && p.id == id).cloned())
    }
    fn list_profiles(
        &mut self,
        org: OrgId,
        before: Option<ProfileId>,
        limit: u32,
    ) -> BoxFuture<'_, StoreResult<Vec<Profile>>> {
        let mut v: Vec<Profile> =
            self.s.profiles.iter().filter(|p| p.org_id == org && before.is_none_or(|b| p.id < b)).cloned().collect();
        v.sort_by_key(|p| std::cmp::Reverse(p.id));
        v.truncate(limit as usize);
        ok(v)
    }
    fn count_profiles(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<u32>> {
        ok(self.s.profiles.iter().filter(|p| p.org_id == org).count() as u32)
    }
    fn update_profile<'a>(&'a mut self, p: &'a Profile) -> BoxFuture<'a, StoreResult<()>> {
        for x in self.s.profiles.iter_mut().filter(|x| x.id == p.id) {
            *x = p.clone();
        }
        ok(())
    }
    fn delete_profile(&mut self, org: OrgId, id: ProfileId) -> BoxFuture<'_, StoreResult<bool>> {
        let before = self.s.profiles.len();
        self.s.profiles.retain(|p| !(p.org_id == org && p.id == id));
        ok(self.s.profiles.len() < before)
    }
}

impl OutboxRepo for FakeTx {
    fn insert_event<'a>(&'a mut self, e: &'a OutboxEvent) -> BoxFuture<'a, StoreResult<()>> {
        self.s.events.push(e.clone());
        ok(())
    }
    fn list_events_of_org(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<OutboxEvent>>> {
        ok(self.s.events.iter().filter(|e| e.org_id == org).cloned().collect())
    }
    fn has_unsequenced_events(&mut self) -> BoxFuture<'_, StoreResult<bool>> {
        let s = &self.s;
        ok(s.events.iter().any(|e| !s.event_sequences.iter().any(|(id, _)| *id == e.id)))
    }
    fn sequence_events(&mut self, limit: u32) -> BoxFuture<'_, StoreResult<u32>> {
        // Writes are serialized (one write turn at a time) and commit in turn order.
        let s = &mut self.s;
        let mut todo: Vec<&OutboxEvent> =
            s.events.iter().filter(|e| !s.event_sequences.iter().any(|(id, _)| *id == e.id)).collect();
        todo.sort_by_key(|e| (e.created_at, e.id.0));
        let ids: Vec<(EventId, OrgId)> = todo.into_iter().take(limit as usize).map(|e| (e.id, e.org_id)).collect();
        for (id, org) in &ids {
            let n = s.last_sequence.entry(*org).or_insert(0);
            *n += 1;
            s.event_sequences.push((*id, *n));
        }
        ok(ids.len() as u32)
    }
    fn list_feed<'a>(&'a mut self, q: &'a FeedQuery) -> BoxFuture<'a, StoreResult<Vec<SequencedEvent>>> {
        let s = &self.s;
        let mut v: Vec<SequencedEvent> = s
            .events
            .iter()
            .filter(|e| e.org_id == q.org_id && (q.types.is_empty() || q.types.contains(&e.event_type)))
            .filter_map(|e| {
                let (_, n) = s.event_sequences.iter().find(|(id, _)| *id == e.id)?;
                (*n > q.after).then(|| SequencedEvent { sequence: *n, event: e.clone() })
            })
            .collect();
        v.sort_by_key(|e| e.sequence);
        v.truncate(q.limit as usize);
        ok(v)
    }
}

impl WebhookRepo for FakeTx {
    fn insert_endpoint<'a>(&'a mut self, e: &'a crate::webhook::Endpoint) -> BoxFuture<'a, StoreResult<()>> {
        self.s.endpoints.push(e.clone());
        ok(())
    }
    fn update_endpoint<'a>(&'a mut self, e: &'a crate::webhook::Endpoint) -> BoxFuture<'a, StoreResult<()>> {
        for x in self.s.endpoints.iter_mut().filter(|x| x.id == e.id) {
            *x = e.clone();
        }
        ok(())
    }
    fn get_endpoint(
        &mut self,
        org: OrgId,
        id: WebhookId,
    ) -> BoxFuture<'_, StoreResult<Option<crate::webhook::Endpoint>>> {
        ok(self.s.endpoints.iter().find(|e| e.org_id == org && e.id == id).cloned())
    }
    fn list_endpoints_of_org(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<crate::webhook::Endpoint>>> {
        ok(self.s.endpoints.iter().filter(|e| e.org_id == org).cloned().collect())
    }
    fn delete_endpoint(&mut self, org: OrgId, id: WebhookId) -> BoxFuture<'_, StoreResult<()>> {
        self.s.endpoints.retain(|e| !(e.org_id == org && e.id == id));
        self.s.deliveries.retain(|(d, _)| d.endpoint_id != id);
        ok(())
    }
    fn insert_delivery<'a>(&'a mut self, d: &'a crate::webhook::Delivery) -> BoxFuture<'a, StoreResult<()>> {
        self.s.deliveries.push((d.clone(), None));
        ok(())
    }
    fn update_delivery<'a>(&'a mut self, d: &'a crate::webhook::Delivery) -> BoxFuture<'a, StoreResult<()>> {
        for x in self.s.deliveries.iter_mut().filter(|x| x.0.id == d.id) {
            *x = (d.clone(), None);
        }
        ok(())
    }
    fn insert_attempts<'a>(
        &'a mut self,
        attempts: &'a [crate::ports::AttemptRecord],
    ) -> BoxFuture<'a, StoreResult<()>> {
        for a in attempts {
            if !self.s.deliveries.iter().any(|(d, _)| d.id == a.delivery) {
                return Box::pin(async { Err(StoreError::Internal("attempt of a missing delivery".into())) });
            }
            self.s.attempts.push((a.delivery, a.at, a.outcome.clone()));
        }
        ok(())
    }
    fn list_endpoints_by_ids<'a>(
        &'a mut self,
        ids: &'a [WebhookId],
    ) -> BoxFuture<'a, StoreResult<Vec<crate::webhook::Endpoint>>> {
        ok(self.s.endpoints.iter().filter(|e| ids.contains(&e.id)).cloned().collect())
    }
    fn lock_endpoints<'a>(
        &'a mut self,
        ids: &'a [WebhookId],
    ) -> BoxFuture<'a, StoreResult<Vec<crate::webhook::Endpoint>>> {
        // Writes are serialized (one write turn at a time): reading is locking.
        self.list_endpoints_by_ids(ids)
    }
    fn list_deliveries_by_ids<'a>(
        &'a mut self,
        ids: &'a [DeliveryId],
    ) -> BoxFuture<'a, StoreResult<Vec<crate::webhook::Delivery>>> {
        ok(self.s.deliveries.iter().filter(|(d, _)| ids.contains(&d.id)).map(|(d, _)| d.clone()).collect())
    }
    fn get_delivery(
        &mut self,
        endpoint: WebhookId,
        id: DeliveryId,
    ) -> BoxFuture<'_, StoreResult<Option<crate::webhook::Delivery>>> {
        ok(self.s.deliveries.iter().find(|(d, _)| d.endpoint_id == endpoint && d.id == id).map(|(d, _)| d.clone()))
    }
    fn list_attempts_of(
        &mut self,
        delivery: DeliveryId,
    ) -> BoxFuture<'_, StoreResult<Vec<(OffsetDateTime, crate::webhook::AttemptOutcome)>>> {
        ok(self.s.attempts.iter().filter(|(d, _, _)| *d == delivery).map(|(_, t, o)| (*t, o.clone())).collect())
    }
    fn list_deliveries(
        &mut self,
        endpoint: WebhookId,
        status: Option<crate::webhook::DeliveryStatus>,
        event_type: Option<EventType>,
        before: Option<DeliveryId>,
        limit: u32,
    ) -> BoxFuture<'_, StoreResult<Vec<crate::webhook::Delivery>>> {
        let mut v: Vec<_> = self
            .s
            .deliveries
            .iter()
            .map(|(d, _)| d)
            .filter(|d| {
                d.endpoint_id == endpoint
                    && status.is_none_or(|s| d.status == s)
                    && event_type.is_none_or(|t| d.event_type == t)
                    && before.is_none_or(|b| d.id < b)
            })
            .cloned()
            .collect();
        v.sort_by_key(|d| std::cmp::Reverse(d.id));
        v.truncate(limit as usize);
        ok(v)
    }
    fn claim_deliveries<'a>(
        &'a mut self,
        c: &'a crate::ports::ClaimRequest,
    ) -> BoxFuture<'a, StoreResult<Vec<crate::webhook::Delivery>>> {
        use std::collections::HashMap;
        let open: Vec<WebhookId> =
            self.s.endpoints.iter().filter(|e| e.enabled && !e.breaker.is_open(c.now)).map(|e| e.id).collect();
        let mut per_ep: HashMap<WebhookId, u32> = c.busy_endpoints.iter().copied().collect();
        let mut per_org: HashMap<OrgId, u32> = c.busy_orgs.iter().copied().collect();
        let mut due: Vec<usize> = (0..self.s.deliveries.len())
            .filter(|&i| {
                let (d, claim) = &self.s.deliveries[i];
                d.status == crate::webhook::DeliveryStatus::Pending
                    && d.next_attempt_at.is_some_and(|t| t <= c.now)
                    && claim.is_none_or(|t| t <= c.now)
                    && open.contains(&d.endpoint_id)
            })
            .collect();
        due.sort_by_key(|&i| (self.s.deliveries[i].0.next_attempt_at, self.s.deliveries[i].0.id.0));
        let mut out = Vec::new();
        for i in due {
            if out.len() >= c.limit as usize {
                break;
            }
            let (d, claim) = &mut self.s.deliveries[i];
            let e = per_ep.entry(d.endpoint_id).or_insert(0);
            let o = per_org.entry(d.org_id).or_insert(0);
            if *e >= c.per_endpoint || *o >= c.per_org {
                continue;
            }
            *e += 1;
            *o += 1;
            *claim = Some(c.lease_until);
            out.push(d.clone());
        }
        ok(out)
    }
    fn purge_webhook_history(&mut self, before: OffsetDateTime, limit: u32) -> BoxFuture<'_, StoreResult<(u64, u64)>> {
        let held = |c: &Option<OffsetDateTime>| c.is_some();
        let old: Vec<DeliveryId> = self
            .s
            .deliveries
            .iter()
            .filter(|(d, c)| d.created_at < before && !held(c))
            .take(limit as usize)
            .map(|(d, _)| d.id)
            .collect();
        self.s.deliveries.retain(|(d, _)| !old.contains(&d.id));
        self.s.attempts.retain(|(d, _, _)| !old.contains(d));
        let mut events = 0u64;
        self.s.events.retain(|e| {
            if e.created_at < before && events < u64::from(limit) {
                events += 1;
                false
            } else {
                true
            }
        });
        ok((old.len() as u64, events))
    }
    fn wake_deliveries(&mut self) {}
}

impl EmailRepo for FakeTx {
    fn insert_email<'a>(&'a mut self, e: &'a EmailRecord) -> BoxFuture<'a, StoreResult<()>> {
        self.s.emails.push(e.clone());
        ok(())
    }
    fn list_due_emails(&mut self, now: OffsetDateTime, limit: u32) -> BoxFuture<'_, StoreResult<Vec<EmailRecord>>> {
        ok(self
            .s
            .emails
            .iter()
            .filter(|e| e.sent_at.is_none() && e.next_attempt_at <= now)
            .take(limit as usize)
            .cloned()
            .collect())
    }
    fn claim_email(
        &mut self,
        id: EmailId,
        now: OffsetDateTime,
        lease_until: OffsetDateTime,
    ) -> BoxFuture<'_, StoreResult<bool>> {
        let mut done = false;
        for e in self.s.emails.iter_mut().filter(|e| e.id == id && e.sent_at.is_none() && e.next_attempt_at <= now) {
            e.next_attempt_at = lease_until;
            done = true;
        }
        ok(done)
    }
    fn record_email_attempt<'a>(
        &'a mut self,
        id: EmailId,
        result: Result<OffsetDateTime, (&'a str, OffsetDateTime)>,
    ) -> BoxFuture<'a, StoreResult<()>> {
        for e in self.s.emails.iter_mut().filter(|e| e.id == id) {
            e.attempts += 1;
            match result {
                Ok(at) => e.sent_at = Some(at),
                Err((err, next)) => {
                    e.last_error = Some(err.to_string());
                    e.next_attempt_at = next;
                }
            }
        }
        ok(())
    }
    fn list_emails<'a>(
        &'a mut self,
        to: Option<&'a Email>,
        limit: u32,
    ) -> BoxFuture<'a, StoreResult<Vec<EmailRecord>>> {
        let mut v: Vec<_> = self.s.emails.iter().filter(|e| to.is_none_or(|t| &e.to == t)).cloned().collect();
        v.reverse();
        v.truncate(limit as usize);
        ok(v)
    }
}

impl IdempotencyRepo for FakeTx {
    fn find_idempotency<'a>(
        &'a mut self,
        org: OrgId,
        path: &'a str,
        key: &'a str,
    ) -> BoxFuture<'a, StoreResult<Option<IdempotencyRecord>>> {
        ok(self.s.idem.iter().find(|r| r.org_id == org && r.path == path && r.key == key).cloned())
    }
    fn idem_insert<'a>(&'a mut self, r: &'a IdempotencyRecord) -> BoxFuture<'a, StoreResult<bool>> {
        if self.s.idem.iter().any(|x| x.org_id == r.org_id && x.path == r.path && x.key == r.key) {
            return ok(false);
        }
        self.s.idem.push(r.clone());
        ok(true)
    }
    fn idem_update<'a>(&'a mut self, r: &'a IdempotencyRecord) -> BoxFuture<'a, StoreResult<()>> {
        for x in self.s.idem.iter_mut().filter(|x| x.org_id == r.org_id && x.path == r.path && x.key == r.key) {
            *x = r.clone();
        }
        ok(())
    }
    fn idem_delete<'a>(&'a mut self, org: OrgId, path: &'a str, key: &'a str) -> BoxFuture<'a, StoreResult<()>> {
        self.s.idem.retain(|x| !(x.org_id == org && x.path == path && x.key == key));
        ok(())
    }
    fn idem_purge(&mut self, before: OffsetDateTime, limit: u32) -> BoxFuture<'_, StoreResult<u64>> {
        let mut old: Vec<OffsetDateTime> = self.s.idem.iter().map(|x| x.created_at).filter(|t| *t < before).collect();
        old.sort();
        let Some(edge) = old.get((limit as usize).saturating_sub(1)).or(old.last()).copied() else { return ok(0) };
        let n = self.s.idem.len();
        self.s.idem.retain(|x| !(x.created_at < before && x.created_at <= edge));
        ok((n - self.s.idem.len()) as u64)
    }
}

impl PrivacyRepo for FakeTx {
    fn list_texts_mentioning<'a>(
        &'a mut self,
        org: Option<OrgId>,
        needles: &'a [String],
    ) -> BoxFuture<'a, StoreResult<Vec<StoredText>>> {
        let hit = |o: OrgId, t: &str| org.is_none_or(|x| x == o) && needles.iter().any(|n| t.contains(n.as_str()));
        let mut v: Vec<StoredText> = vec![];
        for e in &self.s.events {
            let text = e.data.to_string();
            if hit(e.org_id, &text) {
                v.push(StoredText { at: TextRef::Event(e.id), text });
            }
        }
        for (d, _) in &self.s.deliveries {
            if hit(d.org_id, &d.payload) {
                v.push(StoredText { at: TextRef::Delivery(d.id), text: d.payload.clone() });
            }
        }
        for r in &self.s.idem {
            if let IdempotencyState::Done { body, .. } = &r.state {
                if hit(r.org_id, body) {
                    let at = TextRef::Idempotency { org: r.org_id, path: r.path.clone(), key: r.key.clone() };
                    v.push(StoredText { at, text: body.clone() });
                }
            }
        }
        ok(v)
    }
    fn rewrite_text<'a>(&'a mut self, t: &'a StoredText) -> BoxFuture<'a, StoreResult<()>> {
        match &t.at {
            TextRef::Event(id) => {
                for e in self.s.events.iter_mut().filter(|e| e.id == *id) {
                    e.data = serde_json::from_str(&t.text).unwrap_or(serde_json::Value::Null);
                }
            }
            TextRef::Delivery(id) => {
                for (d, _) in self.s.deliveries.iter_mut().filter(|(d, _)| d.id == *id) {
                    d.payload = t.text.clone();
                }
            }
            TextRef::Idempotency { org, path, key } => {
                for r in self.s.idem.iter_mut().filter(|r| r.org_id == *org && &r.path == path && &r.key == key) {
                    if let IdempotencyState::Done { body, .. } = &mut r.state {
                        *body = t.text.clone();
                    }
                }
            }
        }
        ok(())
    }
    fn delete_emails_of_invitation(&mut self, id: InvitationId) -> BoxFuture<'_, StoreResult<u64>> {
        let before = self.s.emails.len();
        self.s.emails.retain(|e| e.invitation_id != Some(id));
        ok((before - self.s.emails.len()) as u64)
    }
    fn list_events_mentioning<'a>(&'a mut self, needle: &'a str) -> BoxFuture<'a, StoreResult<Vec<OutboxEvent>>> {
        ok(self.s.events.iter().filter(|e| e.data.to_string().contains(needle)).cloned().collect())
    }
    fn purge_emails(&mut self, before: OffsetDateTime, limit: u32) -> BoxFuture<'_, StoreResult<u64>> {
        let mut old: Vec<(OffsetDateTime, EmailId)> =
            self.s.emails.iter().filter(|e| e.created_at < before).map(|e| (e.created_at, e.id)).collect();
        old.sort_by_key(|(t, _)| *t);
        old.truncate(limit as usize);
        self.s.emails.retain(|e| !old.iter().any(|(_, id)| *id == e.id));
        ok(old.len() as u64)
    }
    fn purge_consent_codes(&mut self, before: OffsetDateTime, limit: u32) -> BoxFuture<'_, StoreResult<u64>> {
        let mut n = 0u32;
        self.s.consent_codes.retain(|c| {
            let purge = c.created_at < before && n < limit;
            if purge {
                n += 1;
            }
            !purge
        });
        ok(u64::from(n))
    }
    fn list_emails_to_since<'a>(
        &'a mut self,
        to: &'a Email,
        since: OffsetDateTime,
        limit: u32,
    ) -> BoxFuture<'a, StoreResult<Vec<EmailStamp>>> {
        let mut v: Vec<EmailStamp> = self
            .s
            .emails
            .iter()
            .filter(|e| &e.to == to && e.created_at >= since)
            .map(|e| EmailStamp { invitation_id: e.invitation_id, created_at: e.created_at })
            .collect();
        v.sort_by_key(|e| std::cmp::Reverse(e.created_at));
        v.truncate(limit as usize);
        ok(v)
    }
    fn delete_emails_to<'a>(&'a mut self, to: &'a Email) -> BoxFuture<'a, StoreResult<u64>> {
        let before = self.s.emails.len();
        self.s.emails.retain(|e| &e.to != to);
        ok((before - self.s.emails.len()) as u64)
    }
    fn delete_assessments_of_human(&mut self, human: HumanId) -> BoxFuture<'_, StoreResult<u64>> {
        let before = self.s.assessments.len();
        self.s.assessments.retain(|a| a.human_id != human);
        let kept: Vec<AssessmentId> = self.s.assessments.iter().map(|a| a.id).collect();
        self.s.need_counts.retain(|(id, _)| kept.contains(id));
        ok((before - self.s.assessments.len()) as u64)
    }
    fn delete_human(&mut self, human: HumanId) -> BoxFuture<'_, StoreResult<()>> {
        self.s.humans.retain(|(id, _)| *id != human);
        ok(())
    }
}

impl SettingsRepo for FakeTx {
    fn reseal_secrets(&mut self) -> BoxFuture<'_, StoreResult<u64>> {
        ok(0)
    }
    fn relax_durability(&mut self) -> BoxFuture<'_, StoreResult<()>> {
        ok(())
    }
    fn setting_get_or_insert<'a>(&'a mut self, name: &'a str, value: &'a str) -> BoxFuture<'a, StoreResult<String>> {
        if let Some((_, v)) = self.s.settings.iter().find(|(n, _)| n == name) {
            return ok(v.clone());
        }
        self.s.settings.push((name.to_string(), value.to_string()));
        ok(value.to_string())
    }
}

impl SessionRepo for FakeTx {
    fn insert_sign_in_link<'a>(&'a mut self, l: &'a crate::dashboard::SignInLink) -> BoxFuture<'a, StoreResult<()>> {
        if self.s.sign_in_links.iter().any(|x| x.token_hash == l.token_hash) {
            return Box::pin(std::future::ready(Err(StoreError::UniqueViolation)));
        }
        self.s.sign_in_links.push(l.clone());
        ok(())
    }
    fn find_sign_in_link<'a>(
        &'a mut self,
        token_hash: &'a [u8],
    ) -> BoxFuture<'a, StoreResult<Option<crate::dashboard::SignInLink>>> {
        ok(self.s.sign_in_links.iter().find(|l| l.token_hash == token_hash).cloned())
    }
    fn use_sign_in_link(&mut self, id: uuid::Uuid, at: OffsetDateTime) -> BoxFuture<'_, StoreResult<bool>> {
        match self.s.sign_in_links.iter_mut().find(|l| l.id == id && l.used_at.is_none()) {
            Some(l) => {
                l.used_at = Some(at);
                ok(true)
            }
            None => ok(false),
        }
    }
    fn count_sign_in_links_since<'a>(
        &'a mut self,
        email: &'a Email,
        since: OffsetDateTime,
    ) -> BoxFuture<'a, StoreResult<u64>> {
        ok(self.s.sign_in_links.iter().filter(|l| &l.email == email && l.created_at >= since).count() as u64)
    }
    fn list_users_by_email<'a>(&'a mut self, email: &'a Email) -> BoxFuture<'a, StoreResult<Vec<User>>> {
        let mut v: Vec<User> = self.s.users.iter().filter(|u| &u.email == email).cloned().collect();
        v.sort_by_key(|u| (u.created_at, u.id.0));
        ok(v)
    }
    fn insert_session<'a>(&'a mut self, s: &'a crate::dashboard::Session) -> BoxFuture<'a, StoreResult<()>> {
        self.s.sessions.push(s.clone());
        ok(())
    }
    fn find_session<'a>(
        &'a mut self,
        token_hash: &'a [u8],
    ) -> BoxFuture<'a, StoreResult<Option<crate::dashboard::Session>>> {
        ok(self.s.sessions.iter().find(|s| s.token_hash == token_hash).cloned())
    }
    fn delete_session(&mut self, id: uuid::Uuid) -> BoxFuture<'_, StoreResult<()>> {
        self.s.sessions.retain(|s| s.id != id);
        ok(())
    }
    fn purge_sign_ins(&mut self, before: OffsetDateTime, limit: u32) -> BoxFuture<'_, StoreResult<u64>> {
        let mut n = 0u64;
        let mut budget = limit;
        self.s.sessions.retain(|s| {
            let go = s.expires_at < before && budget > 0;
            if go {
                budget -= 1;
                n += 1;
            }
            !go
        });
        let mut budget = limit;
        self.s.sign_in_links.retain(|l| {
            let go = l.expires_at < before && budget > 0;
            if go {
                budget -= 1;
                n += 1;
            }
            !go
        });
        ok(n)
    }
}

impl Store for FakeStore {
    fn write<'s, R, E, F>(&'s self, f: F) -> BoxFuture<'s, Result<R, E>>
    where
        F: for<'c> FnOnce(&'c mut dyn Tx) -> BoxFuture<'c, Result<R, E>> + Send + 'static,
        R: Send + 'static,
        E: From<StoreError> + Send + 'static,
    {
        Box::pin(async move {
            if let Some(hook) = &self.on_begin {
                hook();
            }
            let _turn = WriteTurn::take(&self.writing).await;
            let snapshot = self.snapshot();
            let mut tx = FakeTx { s: snapshot };
            let r = unwound(f(&mut tx)).await?;
            let mut guard = self.state.lock().map_err(|_| StoreError::Internal("poisoned".into()))?;
            *guard = tx.s;
            Ok(r)
        })
    }
    fn read<'s, R, E, F>(&'s self, f: F) -> BoxFuture<'s, Result<R, E>>
    where
        F: for<'c> FnOnce(&'c mut dyn Tx) -> BoxFuture<'c, Result<R, E>> + Send + 'static,
        R: Send + 'static,
        E: From<StoreError> + Send + 'static,
    {
        Box::pin(async move {
            let mut tx = FakeTx { s: self.snapshot() };
            unwound(f(&mut tx)).await
        })
    }
    fn ready(&self) -> BoxFuture<'_, StoreResult<()>> {
        ok(())
    }
}

/// Runs a transaction's future; a panic in it becomes `StoreError::Internal`, as the stores
/// report it (T74), and the transaction's working copy is dropped (nothing is written).
async fn unwound<'c, R, E: From<StoreError>>(mut fut: BoxFuture<'c, Result<R, E>>) -> Result<R, E> {
    std::future::poll_fn(move |cx| {
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| fut.as_mut().poll(cx))) {
            Ok(poll) => poll,
            Err(_) => std::task::Poll::Ready(Err(StoreError::Internal("the transaction panicked".into()).into())),
        }
    })
    .await
}

/// Whether `p` is one of the organization's persons with results (active, an assessment counted).
fn holds_results(p: &Person, org: OrgId) -> bool {
    p.org_id == org && p.status == PersonStatus::Active && p.assessment.count > 0
}
