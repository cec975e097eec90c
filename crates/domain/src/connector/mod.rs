//! ATS connectors (connectors.md, D63-D83): an organization's [`Connection`] to an applicant
//! tracking system, the tests the ATS may order ([`Test`], D65), and the [`Order`]s it places
//! (D67) with their state machine, which follows the invitation and assessment events that
//! already exist ([`follow`]).
//!
//! Everything here is the vendor side of each ATS's partner protocol seen from the domain: the
//! protocols' own names, routes and error shapes live in the connector adapter crate.

mod connection;
mod follow;
mod order;
#[cfg(test)]
mod tests;

pub use connection::{
    connection_scopes, Ats, Connection, ConnectionError, ConnectionPatch, ConnectionSettings, NewConnection,
    SettingsPatch,
};
pub use follow::{call_connection, follow, push_about, pushed, pushed_order, pushes_packages, sync_packages};
pub use order::{
    NewOrder, Order, OrderCandidate, OrderChange, OrderRefs, OrderStatus, ReportOpening, Test, TestRef,
    REPORT_LINK_VALIDITY, TALENT_ASSESSMENT,
};
