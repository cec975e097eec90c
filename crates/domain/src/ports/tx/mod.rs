//! The transaction ports, one per aggregate (one file each), and [`Tx`], their sum: what a use
//! case can do inside one transaction.

mod assessment;
mod connection;
mod email;
mod idempotency;
mod invitation;
mod order;
mod org;
mod outbox;
mod person;
mod privacy;
mod session;
mod settings;
mod webhook;

pub use assessment::AssessmentRepo;
pub use connection::ConnectionRepo;
pub use email::EmailRepo;
pub use idempotency::IdempotencyRepo;
pub use invitation::InvitationRepo;
pub use order::OrderRepo;
pub use org::OrgRepo;
pub use outbox::OutboxRepo;
pub use person::{ImportTarget, PersonRepo};
pub use privacy::PrivacyRepo;
pub use session::SessionRepo;
pub use settings::SettingsRepo;
pub use webhook::WebhookRepo;

/// Declares [`Tx`] as the sum of the given ports and implements it for every type that
/// implements them all: the list of aggregate ports is written once.
macro_rules! sum_of_ports {
    ($(#[$doc:meta])* $first:ident $(+ $port:ident)*) => {
        $(#[$doc])*
        pub trait Tx: $first $(+ $port)* {}

        impl<T: $first $(+ $port)* + ?Sized> Tx for T {}
    };
}

sum_of_ports! {
    /// The store's operations inside one transaction. Every method runs on the transaction's
    /// connection; nothing is visible to others before commit. Errors:
    /// [`StoreError::Internal`](crate::errors::StoreError::Internal) for infrastructure failures;
    /// [`StoreError::UniqueViolation`](crate::errors::StoreError::UniqueViolation) only where a
    /// method says so. A write that returns nothing may be sent with the transaction's next
    /// statement (PostgreSQL pipelines them, T266): its error is then returned by a later method
    /// of the same transaction or by the commit ([`Store::write`](crate::ports::Store::write)), the
    /// same error; the transaction fails either way.
    ///
    /// It is the sum of the aggregate ports ([`OrgRepo`], [`PersonRepo`], [`InvitationRepo`],
    /// [`AssessmentRepo`], [`OutboxRepo`], [`WebhookRepo`], [`EmailRepo`], [`IdempotencyRepo`],
    /// [`PrivacyRepo`], [`SettingsRepo`], [`SessionRepo`], [`ConnectionRepo`], [`OrderRepo`]); a backend implements each of them and
    /// gets `Tx` from the blanket implementation.
    OrgRepo
        + PersonRepo
        + InvitationRepo
        + AssessmentRepo
        + OutboxRepo
        + WebhookRepo
        + EmailRepo
        + IdempotencyRepo
        + PrivacyRepo
        + SettingsRepo
        + SessionRepo
        + ConnectionRepo
        + OrderRepo
}
