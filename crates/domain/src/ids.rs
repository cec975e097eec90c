//! Identifiers as distinct types, so a person id can never be passed where an organization id is
//! expected. All are UUIDs (spec: "Identifiers are UUID strings"); new ones come from the
//! [`crate::ports::Ids`] port (UUIDv7, so indexes stay local and ids sort by creation).

use std::fmt;
use std::str::FromStr;
use uuid::Uuid;

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
        pub struct $name(pub Uuid);

        impl $name {
            /// The underlying UUID.
            pub fn uuid(self) -> Uuid {
                self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.hyphenated().fmt(f)
            }
        }

        impl FromStr for $name {
            type Err = uuid::Error;
            /// Parses any UUID text form; the API always prints the hyphenated lower-case form.
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                Uuid::parse_str(s).map($name)
            }
        }

        impl From<Uuid> for $name {
            fn from(u: Uuid) -> Self {
                $name(u)
            }
        }

        impl From<$name> for Uuid {
            fn from(id: $name) -> Uuid {
                id.0
            }
        }
    };
}

id_type!(
    /// An organization (tenant).
    OrgId
);
id_type!(
    /// A dashboard user of one organization; owns API keys.
    UserId
);
id_type!(
    /// An API key record (not the secret key value).
    ApiKeyId
);
id_type!(
    /// A person as the API shows it: the id of the human's membership in one organization (D10).
    PersonId
);
id_type!(
    /// The human behind memberships; never exposed by the public API (D10).
    HumanId
);
id_type!(
    /// An entry of an organization's tag catalogue (D14).
    TagId
);
id_type!(
    /// A team (dashboard object, D16/D39).
    TeamId
);
id_type!(
    /// An event written to the outbox (D31).
    EventId
);
id_type!(
    /// An assessment taken by a human (D10: assessments belong to the human).
    AssessmentId
);
id_type!(
    /// A competency profile of an organization (D25).
    ProfileId
);
id_type!(
    /// A personal invitation (spec, Invitation).
    InvitationId
);
id_type!(
    /// An email in the email outbox (D22).
    EmailId
);
id_type!(
    /// A webhook endpoint (D29).
    WebhookId
);
id_type!(
    /// A delivery of one event to one endpoint; the same across retries (D31).
    DeliveryId
);
id_type!(
    /// A one-time code sent to an invitation's email address (D43).
    ConsentCodeId
);
id_type!(
    /// A connection of an organization to an ATS (D63).
    ConnectionId
);
id_type!(
    /// An order of a test placed by an ATS through a connection (D67); the id the ATS is given.
    OrderId
);
