//! Teams: named groups of an organization's persons (dashboard object, D16).

use crate::ids::{OrgId, TeamId};
use time::OffsetDateTime;

/// A team (dashboard object, D16).
#[derive(Clone, Debug, PartialEq)]
pub struct Team {
    pub id: TeamId,
    /// Organization.
    pub org_id: OrgId,
    pub name: String,
    /// Creation time.
    pub created_at: OffsetDateTime,
}
