//! [`Connection`]: an organization's link to one ATS (D63).

use crate::ids::*;
use crate::values::{Locale, Scope, Scopes};
use time::{Duration, OffsetDateTime};

/// The ATSs Talent connects to (D63).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Ats {
    /// Greenhouse's Assessment Partner API (D71-D75).
    Greenhouse,
    /// Ashby's assessment partner endpoints (D76-D79).
    Ashby,
    /// Workable's assessment-provider endpoints (D80).
    Workable,
    /// Kombo's assessment API, which reaches many ATSs (D81-D83).
    Kombo,
}

impl Ats {
    /// Every ATS, in the order of D63.
    pub const ALL: [Ats; 4] = [Ats::Greenhouse, Ats::Ashby, Ats::Workable, Ats::Kombo];

    /// The wire value (`ats` of a connection, and the `{ats}` of `/partners/{ats}/…`).
    pub fn as_str(self) -> &'static str {
        match self {
            Ats::Greenhouse => "greenhouse",
            Ats::Ashby => "ashby",
            Ats::Workable => "workable",
            Ats::Kombo => "kombo",
        }
    }

    /// The name people know it by.
    pub fn display_name(self) -> &'static str {
        match self {
            Ats::Greenhouse => "Greenhouse",
            Ats::Ashby => "Ashby",
            Ats::Workable => "Workable",
            Ats::Kombo => "Kombo",
        }
    }

    /// Parses the wire value. Errors: the list of accepted values.
    pub fn parse(s: &str) -> Result<Ats, String> {
        Ats::ALL
            .into_iter()
            .find(|a| a.as_str() == s)
            .ok_or_else(|| "must be one of: greenhouse, ashby, workable, kombo".to_string())
    }

    /// The base URL Talent calls when the connection gives none (D79, D81); `None` where the
    /// protocol calls back to URLs the ATS gives per order (Greenhouse, Workable).
    pub fn default_base_url(self) -> Option<&'static str> {
        match self {
            Ats::Ashby => Some("https://api.ashbyhq.com"),
            Ats::Kombo => Some("https://api.kombo.dev/v1"),
            Ats::Greenhouse | Ats::Workable => None,
        }
    }

    /// Whether an order moving to `status` is pushed to this ATS (D69): Greenhouse on completion
    /// (D74); Ashby on start, completion, expiry and cancellation (D79); Workable on completion
    /// and expiry (D80); Kombo on completion, expiry and cancellation (D83: its result, or
    /// `CANCELLED`).
    pub fn pushes_on(self, status: super::OrderStatus) -> bool {
        use super::OrderStatus::*;
        match self {
            Ats::Greenhouse => status == Completed,
            Ats::Ashby => matches!(status, Started | Completed | Expired | Cancelled),
            Ats::Workable => matches!(status, Completed | Expired),
            Ats::Kombo => matches!(status, Completed | Expired | Cancelled),
        }
    }

    /// Whether this ATS keeps a list of the vendor's tests that Talent must keep in step (Kombo's
    /// packages, D81): a push of the whole list when the connection is created or changed and
    /// whenever the organization's profiles change.
    pub fn takes_packages(self) -> bool {
        self == Ats::Kombo
    }

    /// Whether a completion push carries the PDF report (Kombo's `attachments`, D83).
    pub fn attaches_report(self) -> bool {
        self == Ats::Kombo
    }

    /// Whether the ATS's order id names one order for good (Kombo, D82): an order taken once is
    /// never taken again, whatever its state, however often the webhook or the poll repeats it.
    /// Elsewhere a finished order's key may be ordered again (a new test for the application).
    pub fn orders_once(self) -> bool {
        self == Ats::Kombo
    }

    /// Which `settings` members this ATS takes (D63): (`baseUrl`, `apiKey`, `integrationId`,
    /// `webhookSecret`).
    fn accepts(self) -> [bool; 4] {
        match self {
            Ats::Greenhouse => [false, false, false, false],
            Ats::Ashby => [true, true, false, false],
            Ats::Workable => [false, true, false, false],
            Ats::Kombo => [true, true, true, true],
        }
    }

    /// Which `settings` members this ATS needs before it can work: Ashby its key (pushes), Workable
    /// its token (pushes), Kombo its key, integration id and webhook secret.
    fn requires(self) -> [bool; 4] {
        match self {
            Ats::Greenhouse => [false, false, false, false],
            Ats::Ashby => [false, true, false, false],
            Ats::Workable => [false, true, false, false],
            Ats::Kombo => [false, true, true, true],
        }
    }
}

/// The scopes of the key a connection mints (D63): what an ATS needs to place orders and read
/// their results.
pub fn connection_scopes() -> Scopes {
    Scopes::new(vec![Scope::PersonsWrite, Scope::InvitationsWrite, Scope::ResultsRead, Scope::ProfilesRead])
}

/// The ATS-side settings of a connection (D63). The credentials (`api_key`, `webhook_secret`)
/// are held in clear in memory, sealed at rest by the store (`TALENT_SECRET_KEY`) and never shown
/// again after they are set.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct ConnectionSettings {
    /// `baseUrl`: where Talent calls the ATS (Ashby, Kombo); `None` = the ATS's production URL.
    pub base_url: Option<String>,
    /// `apiKey`: the credential Talent calls the ATS with (Ashby key, Workable token, Kombo key).
    pub api_key: Option<String>,
    /// `integrationId` (Kombo's `X-Integration-Id`).
    pub integration_id: Option<String>,
    /// `webhookSecret` (Kombo's webhook signing secret).
    pub webhook_secret: Option<String>,
}

impl std::fmt::Debug for ConnectionSettings {
    /// Credentials never print (they would reach logs).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ConnectionSettings")
            .field("base_url", &self.base_url)
            .field("api_key", &self.api_key.as_ref().map(|_| "(set)"))
            .field("integration_id", &self.integration_id)
            .field("webhook_secret", &self.webhook_secret.as_ref().map(|_| "(set)"))
            .finish()
    }
}

impl ConnectionSettings {
    /// Longest value of a setting, in characters.
    pub const MAX_CHARS: usize = 2000;

    fn members(&self) -> [(&'static str, Option<&String>); 4] {
        [
            ("baseUrl", self.base_url.as_ref()),
            ("apiKey", self.api_key.as_ref()),
            ("integrationId", self.integration_id.as_ref()),
            ("webhookSecret", self.webhook_secret.as_ref()),
        ]
    }

    /// Checks the settings for `ats`: no member the ATS does not take, every member it needs,
    /// values 1..2,000 characters without control characters, `baseUrl` an `https://` URL (or
    /// `http://` when `allow_insecure`, as for webhooks, D69). Errors: `(field, message)` pairs,
    /// fields named `settings.<member>`.
    pub fn check(&self, ats: Ats, allow_insecure: bool) -> Result<(), Vec<(String, String)>> {
        let mut errors = vec![];
        let (accepts, requires) = (ats.accepts(), ats.requires());
        for (i, (name, value)) in self.members().into_iter().enumerate() {
            let field = format!("settings.{name}");
            match value {
                Some(_) if !accepts[i] => {
                    errors.push((field, format!("is not a setting of {}", ats.display_name())));
                }
                None if requires[i] => errors.push((field, format!("is required for {}", ats.display_name()))),
                Some(v) if v.is_empty() || v.chars().count() > Self::MAX_CHARS => {
                    errors.push((field, format!("must be 1 to {} characters", Self::MAX_CHARS)));
                }
                Some(v) if v.chars().any(char::is_control) => {
                    errors.push((field, "must not contain control characters".to_string()));
                }
                Some(v) if name == "baseUrl" && !base_url_scheme_ok(v, allow_insecure) => {
                    errors.push((field, "must be an https:// URL".to_string()));
                }
                _ => {}
            }
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }

    /// The settings after `patch`: each member given replaces the current one; `Some(None)`
    /// clears it.
    pub fn patched(&self, patch: &SettingsPatch) -> ConnectionSettings {
        fn pick(now: &Option<String>, p: &Option<Option<String>>) -> Option<String> {
            match p {
                Some(v) => v.clone(),
                None => now.clone(),
            }
        }
        ConnectionSettings {
            base_url: pick(&self.base_url, &patch.base_url),
            api_key: pick(&self.api_key, &patch.api_key),
            integration_id: pick(&self.integration_id, &patch.integration_id),
            webhook_secret: pick(&self.webhook_secret, &patch.webhook_secret),
        }
    }
}

fn base_url_scheme_ok(v: &str, allow_insecure: bool) -> bool {
    let rest = v.strip_prefix("https://").or_else(|| v.strip_prefix("http://").filter(|_| allow_insecure));
    rest.is_some_and(|r| !r.is_empty() && !r.starts_with('/'))
}

/// A change of settings: each member `None` = unchanged, `Some(None)` = cleared.
#[derive(Clone, Default, Debug)]
pub struct SettingsPatch {
    /// `baseUrl`.
    pub base_url: Option<Option<String>>,
    /// `apiKey`.
    pub api_key: Option<Option<String>>,
    /// `integrationId`.
    pub integration_id: Option<Option<String>>,
    /// `webhookSecret`.
    pub webhook_secret: Option<Option<String>>,
}

/// A connection of an organization to an ATS (D63). `Debug` leaves out the key.
#[derive(Clone, PartialEq)]
pub struct Connection {
    /// `id`.
    pub id: ConnectionId,
    /// The organization.
    pub org_id: OrgId,
    /// `ats`.
    pub ats: Ats,
    /// `name` (1..200 characters).
    pub name: String,
    /// `enabled`: a disabled connection refuses its ATS's calls (401) and sends nothing.
    pub enabled: bool,
    /// The ATS-side settings.
    pub settings: ConnectionSettings,
    /// The API key minted for the ATS (D63); revoked with the connection.
    pub api_key_id: ApiKeyId,
    /// That key's value, sealed at rest: Greenhouse's completion `PATCH` presents it (D74), so
    /// it is kept (unlike other keys, stored only as their hash). Never shown again.
    pub key: String,
    /// The hidden endpoint its pushes go through (D69).
    pub endpoint_id: WebhookId,
    /// `createdAt`.
    pub created_at: OffsetDateTime,
    /// Last change of the connection itself.
    pub updated_at: OffsetDateTime,
    /// `lastActivityAt`: the last call of its ATS or push to it, to the minute.
    pub last_activity_at: Option<OffsetDateTime>,
    /// `locale` (T221): the language of the invitations its orders send (none of the four
    /// protocols carries one); `None` = the organization's.
    pub locale: Option<Locale>,
}

impl std::fmt::Debug for Connection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Connection")
            .field("id", &self.id)
            .field("org_id", &self.org_id)
            .field("ats", &self.ats)
            .field("name", &self.name)
            .field("enabled", &self.enabled)
            .field("settings", &self.settings)
            .field("api_key_id", &self.api_key_id)
            .field("endpoint_id", &self.endpoint_id)
            .field("last_activity_at", &self.last_activity_at)
            .finish_non_exhaustive()
    }
}

impl Connection {
    /// Longest `name`, in characters.
    pub const MAX_NAME_CHARS: usize = 200;
    /// `lastActivityAt` is written at most this often (a call of the ATS would otherwise be a
    /// write each).
    pub const ACTIVITY_RESOLUTION: Duration = Duration::minutes(1);

    /// Parses a name: trimmed, 1..200 characters, no control characters.
    pub fn parse_name(raw: &str) -> Result<String, String> {
        let t = raw.trim();
        if t.is_empty() || t.chars().count() > Self::MAX_NAME_CHARS {
            return Err(format!("must be 1 to {} characters", Self::MAX_NAME_CHARS));
        }
        if t.chars().any(char::is_control) {
            return Err("must not contain control characters".into());
        }
        Ok(t.to_string())
    }

    /// Whether activity at `now` moves `lastActivityAt` enough to be written (a minute, D63).
    pub fn needs_touch(&self, now: OffsetDateTime) -> bool {
        self.last_activity_at.is_none_or(|t| now - t >= Self::ACTIVITY_RESOLUTION)
    }

    /// Records activity at `now`; true when `lastActivityAt` moved enough to be written.
    pub fn touch(&mut self, now: OffsetDateTime) -> bool {
        if !self.needs_touch(now) {
            return false;
        }
        self.last_activity_at = Some(now);
        true
    }

    /// The base URL Talent calls: the configured one, else the ATS's production URL (D79, D81).
    pub fn base_url(&self) -> Option<&str> {
        self.settings.base_url.as_deref().or(self.ats.default_base_url())
    }
}

/// `POST /admin/v1/organizations/{id}/connections` (D63), parsed.
#[derive(Clone, Debug)]
pub struct NewConnection {
    /// `ats`.
    pub ats: Ats,
    /// `name`, parsed with [`Connection::parse_name`].
    pub name: String,
    /// `settings`, checked by the use case ([`ConnectionSettings::check`]).
    pub settings: ConnectionSettings,
    /// `locale` (T221).
    pub locale: Option<Locale>,
}

/// `PATCH /admin/v1/connections/{id}` (D63), parsed: each member `None` = unchanged.
#[derive(Clone, Debug, Default)]
pub struct ConnectionPatch {
    /// `name`.
    pub name: Option<String>,
    /// `enabled`.
    pub enabled: Option<bool>,
    /// `settings` members to replace or clear.
    pub settings: SettingsPatch,
    /// `locale` (T221): `Some(None)` clears it.
    pub locale: Option<Option<Locale>>,
}

/// An error an ATS reported about a call of Talent or a payload (Greenhouse `response_error`,
/// D75): recorded on the connection, changes nothing else.
#[derive(Clone, Debug, PartialEq)]
pub struct ConnectionError {
    /// Its id.
    pub id: uuid::Uuid,
    /// The connection.
    pub connection_id: ConnectionId,
    /// What the ATS was doing (`api_call`), up to 200 characters.
    pub api_call: String,
    /// The ATS's errors as it sent them (JSON text, up to 4,000 characters).
    pub errors: String,
    /// The order it is about, when the ATS named one of ours.
    pub order_id: Option<OrderId>,
    /// When it was reported.
    pub created_at: OffsetDateTime,
}
