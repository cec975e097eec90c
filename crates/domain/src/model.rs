//! Every entity in one import (`use crate::model::*`): organizations, users, API keys, persons
//! (memberships), assessments as stored, profiles and outbox events. Each lives in a module of
//! its own: [`crate::organization`], [`crate::api_key`], [`crate::person`],
//! [`crate::results`], [`crate::events`].

pub use crate::api_key::*;
pub use crate::events::*;
pub use crate::organization::*;
pub use crate::person::{
    ArchiveReason, JoinedVia, NewMember, Period, Person, PersonStatus, ResultHolder, Team, Visibility,
};
pub use crate::results::*;
