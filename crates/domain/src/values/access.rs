//! What a key may do and who a user is: API scopes and organization roles.

/// An API scope (spec, Authentication 7). `*:write` implies the matching `*:read`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub enum Scope {
    /// `organization:read`
    OrganizationRead,
    /// `persons:read`
    PersonsRead,
    /// `persons:write`
    PersonsWrite,
    /// `invitations:read`
    InvitationsRead,
    /// `invitations:write`
    InvitationsWrite,
    /// `results:read`
    ResultsRead,
    /// `profiles:read`
    ProfilesRead,
    /// `webhooks:manage`
    WebhooksManage,
}

impl Scope {
    /// Every scope, in the spec's order.
    pub const ALL: [Scope; 8] = [
        Scope::OrganizationRead,
        Scope::PersonsRead,
        Scope::PersonsWrite,
        Scope::InvitationsRead,
        Scope::InvitationsWrite,
        Scope::ResultsRead,
        Scope::ProfilesRead,
        Scope::WebhooksManage,
    ];

    /// Parses the wire value.
    pub fn parse(s: &str) -> Result<Scope, String> {
        Scope::ALL.into_iter().find(|sc| sc.as_str() == s).ok_or_else(|| format!("unknown scope '{s}'"))
    }
    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::OrganizationRead => "organization:read",
            Scope::PersonsRead => "persons:read",
            Scope::PersonsWrite => "persons:write",
            Scope::InvitationsRead => "invitations:read",
            Scope::InvitationsWrite => "invitations:write",
            Scope::ResultsRead => "results:read",
            Scope::ProfilesRead => "profiles:read",
            Scope::WebhooksManage => "webhooks:manage",
        }
    }
    /// Whether the scope acts only for a key whose owner is an administrator (spec,
    /// Authentication 5: `webhooks:manage`). Checked when a key is created and on every request,
    /// so a key keeps the scope but it stops acting when its owner is made a member (T123).
    pub fn requires_admin(self) -> bool {
        matches!(self, Scope::WebhooksManage)
    }
    /// The write scope that implies this read scope, if any.
    fn implied_by(self) -> Option<Scope> {
        match self {
            Scope::PersonsRead => Some(Scope::PersonsWrite),
            Scope::InvitationsRead => Some(Scope::InvitationsWrite),
            _ => None,
        }
    }
}

/// The scopes granted to a key, as granted (sorted, unique). [`Scopes::grants`] applies the
/// write-implies-read rule.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Scopes(Vec<Scope>);

impl Scopes {
    /// Builds a sorted, de-duplicated set.
    pub fn new(mut v: Vec<Scope>) -> Scopes {
        v.sort();
        v.dedup();
        Scopes(v)
    }
    /// Parses wire values; errors per item `(index, message)`; an empty list is an error.
    pub fn parse(items: &[String]) -> Result<Scopes, Vec<(Option<usize>, String)>> {
        let mut errs = Vec::new();
        let mut v = Vec::new();
        if items.is_empty() {
            errs.push((None, "must contain at least one scope".to_string()));
        }
        for (i, s) in items.iter().enumerate() {
            match Scope::parse(s) {
                Ok(sc) => v.push(sc),
                Err(m) => errs.push((Some(i), m)),
            }
        }
        if errs.is_empty() {
            Ok(Scopes::new(v))
        } else {
            Err(errs)
        }
    }
    /// True when `required` is granted directly or implied by its write scope.
    pub fn grants(&self, required: Scope) -> bool {
        self.0.contains(&required) || required.implied_by().is_some_and(|w| self.0.contains(&w))
    }
    /// True when the scope is granted directly (not implied).
    pub fn contains(&self, s: Scope) -> bool {
        self.0.contains(&s)
    }
    /// The granted scopes as wire values.
    pub fn to_strings(&self) -> Vec<String> {
        self.0.iter().map(|s| s.as_str().to_string()).collect()
    }
    /// The granted scopes.
    pub fn iter(&self) -> impl Iterator<Item = Scope> + '_ {
        self.0.iter().copied()
    }
}

/// A user's role in the organization (`admin` or `member`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum OrgRole {
    /// `admin`
    Admin,
    /// `member`
    Member,
}

impl OrgRole {
    /// Parses the wire value.
    pub fn parse(s: &str) -> Result<Self, String> {
        match s {
            "admin" => Ok(Self::Admin),
            "member" => Ok(Self::Member),
            _ => Err("must be one of: admin, member".into()),
        }
    }
    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Admin => "admin",
            Self::Member => "member",
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn write_scope_implies_read_scope() {
        let s = Scopes::new(vec![Scope::PersonsWrite]);
        assert!(s.grants(Scope::PersonsRead));
        assert!(s.grants(Scope::PersonsWrite));
        assert!(!s.grants(Scope::OrganizationRead));
        let r = Scopes::new(vec![Scope::PersonsRead]);
        assert!(!r.grants(Scope::PersonsWrite));
    }
}
