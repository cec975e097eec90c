//! [`PersonRepo`] on the fake: humans, persons, the tag catalogue and teams.

use super::{all, first, insert_unique, newest, ok, remove, replace, FakeTx};
use crate::ids::{HumanId, OrgId, PersonId, TagId, TeamId};
use crate::person::{Person, PersonStatus, Team};
use crate::ports::{BoxFuture, ImportTarget, LabelFilter, PersonQuery, PersonRepo, StoreResult};
use crate::values::{Email, Tag, TagName};
use time::OffsetDateTime;

impl PersonRepo for FakeTx {
    fn ensure_human<'a>(
        &'a mut self,
        new_id: HumanId,
        key: &'a str,
        _now: OffsetDateTime,
    ) -> BoxFuture<'a, StoreResult<HumanId>> {
        if let Some((id, _)) = self.s.humans.iter().find(|(_, e)| e == key) {
            return ok(*id);
        }
        self.s.humans.push((new_id, key.to_string()));
        ok(new_id)
    }
    fn find_human<'a>(&'a mut self, key: &'a str) -> BoxFuture<'a, StoreResult<Option<HumanId>>> {
        ok(self.s.humans.iter().find(|(_, e)| e == key).map(|(id, _)| *id))
    }
    fn find_humans_of_address<'a>(&'a mut self, email: &'a str) -> BoxFuture<'a, StoreResult<Vec<HumanId>>> {
        let prefix = crate::organization::test_human_prefix(email);
        ok(self.s.humans.iter().filter(|(_, k)| k == email || k.starts_with(&prefix)).map(|(id, _)| *id).collect())
    }
    fn find_person_by_email<'a>(
        &'a mut self,
        org: OrgId,
        email: &'a Email,
    ) -> BoxFuture<'a, StoreResult<Option<Person>>> {
        ok(first(&self.s.persons, |p| p.org_id == org && &p.email == email))
    }
    fn lock_import_target<'a>(
        &'a mut self,
        org: OrgId,
        email: &'a Email,
        _exclusive: bool,
    ) -> BoxFuture<'a, StoreResult<Option<ImportTarget>>> {
        let Some(org) = first(&self.s.orgs, |o| o.id == org) else { return ok(None) };
        let person = first(&self.s.persons, |p| p.org_id == org.id && &p.email == email);
        let active = self.s.persons.iter().filter(|p| p.org_id == org.id && p.status == PersonStatus::Active).count();
        ok(Some(ImportTarget { org, person, active: u32::try_from(active).unwrap_or(u32::MAX) }))
    }
    fn get_person(&mut self, org: OrgId, id: PersonId) -> BoxFuture<'_, StoreResult<Option<Person>>> {
        ok(first(&self.s.persons, |p| p.org_id == org && p.id == id))
    }
    fn get_person_any(&mut self, id: PersonId) -> BoxFuture<'_, StoreResult<Option<Person>>> {
        ok(first(&self.s.persons, |p| p.id == id))
    }
    fn insert_person<'a>(&'a mut self, p: &'a Person) -> BoxFuture<'a, StoreResult<()>> {
        insert_unique(&mut self.s.persons, p, |x| x.org_id == p.org_id && x.email == p.email)
    }
    fn update_person<'a>(&'a mut self, p: &'a Person) -> BoxFuture<'a, StoreResult<()>> {
        replace(&mut self.s.persons, p, |x| x.id == p.id);
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
            let t = found.unwrap_or_else(|| {
                let t = Tag { id: *id, name: n.as_str().to_string() };
                self.s.tags.push((org, t.clone()));
                t
            });
            out.push(t);
        }
        ok(out)
    }
    fn list_persons<'a>(&'a mut self, q: &'a PersonQuery) -> BoxFuture<'a, StoreResult<Vec<Person>>> {
        ok(newest(all(&self.s.persons, |p| passes(q, p)), |p| p.id, q.limit))
    }
    fn insert_team<'a>(&'a mut self, team: &'a Team) -> BoxFuture<'a, StoreResult<()>> {
        self.s.teams.push(team.clone());
        ok(())
    }
    fn get_team(&mut self, id: TeamId) -> BoxFuture<'_, StoreResult<Option<Team>>> {
        ok(first(&self.s.teams, |t| t.id == id))
    }
    fn list_teams(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<(Team, u64)>>> {
        let members = &self.s.team_members;
        let mut v: Vec<(Team, u64)> = self
            .s
            .teams
            .iter()
            .filter(|t| t.org_id == org)
            .map(|t| (t.clone(), members.iter().filter(|(id, _)| *id == t.id).count() as u64))
            .collect();
        v.sort_by(|a, b| by_name(&a.0, &b.0));
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
        ok(remove(&mut self.s.team_members, |(_, p)| *p == person))
    }
    fn list_person_teams(&mut self, person: PersonId) -> BoxFuture<'_, StoreResult<Vec<Team>>> {
        let mut v = all(&self.s.teams, |t| self.s.team_members.contains(&(t.id, person)));
        v.sort_by(by_name);
        ok(v)
    }
    fn remove_team_member(&mut self, team: TeamId, person: PersonId) -> BoxFuture<'_, StoreResult<bool>> {
        ok(remove(&mut self.s.team_members, |m| *m == (team, person)) > 0)
    }
}

/// Teams by name, then id.
fn by_name(a: &Team, b: &Team) -> std::cmp::Ordering {
    (&a.name, a.id.0).cmp(&(&b.name, b.id.0))
}

/// Whether person `p` passes every filter of `q`, the keyset bound `before_id` included.
fn passes(q: &PersonQuery, p: &Person) -> bool {
    let label = match q.label {
        None => true,
        Some(LabelFilter::Candidate) => p.labels.candidate,
        Some(LabelFilter::Employee) => p.labels.employee,
        Some(LabelFilter::Other) => !p.labels.candidate && !p.labels.employee,
    };
    label
        && q.org_id.is_none_or(|o| p.org_id == o)
        && q.status.only().is_none_or(|s| p.status == s)
        && q.before_id.is_none_or(|b| p.id < b)
        && q.email.as_ref().is_none_or(|e| &p.email == e)
        && q.external_id.as_ref().is_none_or(|e| p.external_id.as_ref().map(|x| x.as_str()) == Some(e.as_str()))
        && q.assessment_status.is_none_or(|s| p.assessment.status == s)
        && q.tag_key.as_ref().is_none_or(|k| p.tags.iter().any(|t| &t.name.to_lowercase() == k))
        && q.updated_after.is_none_or(|u| p.updated_at > u)
        && q.q.as_ref().is_none_or(|needle| {
            let first = p.first_name.as_ref().map(|n| n.as_str()).unwrap_or("");
            let last = p.last_name.as_ref().map(|n| n.as_str()).unwrap_or("");
            format!("{first} {last} {}", p.email.as_str()).to_lowercase().contains(needle.as_str())
        })
}
