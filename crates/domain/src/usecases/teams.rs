//! Teams (dashboard objects; D16, D39).

use super::Services;
use crate::errors::{ClientError, UseCaseError};
use crate::ids::*;
use crate::person::Team;
use crate::ports::Store;

/// Parses a team name (D16): 1 to 200 characters after trimming (as the admin API), one line.
pub fn parse_team_name(raw: &str) -> Result<String, String> {
    let s = raw.trim();
    crate::values::single_line(s)?;
    match s.chars().count() {
        1..=200 => Ok(s.to_string()),
        _ => Err("must be 1 to 200 characters".into()),
    }
}

impl<S: Store> Services<S> {
    /// Creates a team. Errors: 404 (organization).
    pub async fn create_team(&self, org_id: OrgId, name: String) -> Result<Team, UseCaseError> {
        let team = Team { id: TeamId(self.ids.new_uuid()), org_id, name, created_at: self.clock.now() };
        let t = team.clone();
        self.store
            .write(move |tx| {
                Box::pin(async move {
                    tx.get_org(org_id).await?.ok_or_else(|| ClientError::not_found("Organization"))?;
                    tx.insert_team(&t).await?;
                    Ok::<_, UseCaseError>(())
                })
            })
            .await?;
        Ok(team)
    }

    /// Adds a person of the team's organization to the team (the admin API). Errors: 404 (team,
    /// or person not in the team's organization).
    pub async fn add_team_member(&self, team_id: TeamId, person_id: PersonId) -> Result<Vec<PersonId>, UseCaseError> {
        self.join_team(None, team_id, person_id).await
    }

    /// [`Services::add_team_member`] for a team of `org` (the dashboard): another organization's
    /// team is not found (404), checked in the same transaction.
    pub async fn add_team_member_of(
        &self,
        org: OrgId,
        team_id: TeamId,
        person_id: PersonId,
    ) -> Result<Vec<PersonId>, UseCaseError> {
        self.join_team(Some(org), team_id, person_id).await
    }

    async fn join_team(
        &self,
        org: Option<OrgId>,
        team_id: TeamId,
        person_id: PersonId,
    ) -> Result<Vec<PersonId>, UseCaseError> {
        let now = self.clock.now();
        self.store
            .write(move |tx| {
                Box::pin(async move {
                    let team = tx
                        .get_team(team_id)
                        .await?
                        .filter(|t| org.is_none_or(|o| t.org_id == o))
                        .ok_or_else(|| ClientError::not_found("Team"))?;
                    tx.get_person(team.org_id, person_id).await?.ok_or_else(|| ClientError::not_found("Person"))?;
                    tx.add_team_member(team_id, person_id, now).await?;
                    Ok::<_, UseCaseError>(tx.list_team_members(team_id).await?)
                })
            })
            .await
    }

    /// The teams a person of `org` is a member of, by name (the dashboard's person page).
    /// Errors: 404 (no such person in `org`).
    pub async fn person_teams(&self, org: OrgId, person_id: PersonId) -> Result<Vec<Team>, UseCaseError> {
        self.store
            .read(move |tx| {
                Box::pin(async move {
                    tx.get_person(org, person_id).await?.ok_or_else(|| ClientError::not_found("Person"))?;
                    Ok::<_, UseCaseError>(tx.list_person_teams(person_id).await?)
                })
            })
            .await
    }

    /// Removes a person of `org` from a team of `org`; removing one who is not a member changes
    /// nothing. Returns the team's members. Errors: 404 (the team or the person is not of `org`:
    /// another organization's team is not found, T122).
    pub async fn remove_team_member(
        &self,
        org: OrgId,
        team_id: TeamId,
        person_id: PersonId,
    ) -> Result<Vec<PersonId>, UseCaseError> {
        self.store
            .write(move |tx| {
                Box::pin(async move {
                    tx.get_team(team_id)
                        .await?
                        .filter(|t| t.org_id == org)
                        .ok_or_else(|| ClientError::not_found("Team"))?;
                    tx.get_person(org, person_id).await?.ok_or_else(|| ClientError::not_found("Person"))?;
                    tx.remove_team_member(team_id, person_id).await?;
                    Ok::<_, UseCaseError>(tx.list_team_members(team_id).await?)
                })
            })
            .await
    }

    /// The teams of an organization with their member counts, by name (the dashboard).
    pub async fn list_teams(&self, org: OrgId) -> Result<Vec<(Team, u64)>, UseCaseError> {
        self.store.read(move |tx| Box::pin(async move { Ok::<_, UseCaseError>(tx.list_teams(org).await?) })).await
    }

    /// Members of a team. Errors: 404.
    pub async fn team_members(&self, team_id: TeamId) -> Result<Vec<PersonId>, UseCaseError> {
        self.store
            .read(move |tx| {
                Box::pin(async move {
                    tx.get_team(team_id).await?.ok_or_else(|| ClientError::not_found("Team"))?;
                    Ok::<_, UseCaseError>(tx.list_team_members(team_id).await?)
                })
            })
            .await
    }
}
