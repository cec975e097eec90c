//! Every entity in one import (`use crate::model::*`): organizations, users, API keys, persons
//! (memberships), assessments as stored, profiles and outbox events. Each lives in a module of
//! its own: [`crate::organization`], [`crate::api_key`], [`crate::membership`],
//! [`crate::results`], [`crate::events`].

pub use crate::api_key::*;
pub use crate::events::*;
pub use crate::membership::*;
pub use crate::organization::*;
pub use crate::results::*;
