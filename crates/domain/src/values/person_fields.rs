//! What a client sends about a person besides the address: names, the external id, labels and
//! tags.

use super::{char_len, single_line};

/// `s` when it has 1 to `max` characters; otherwise the message every such limit gives.
fn bounded(s: &str, max: usize) -> Result<&str, String> {
    match char_len(s) {
        n if n == 0 || n > max => Err(format!("must be 1 to {max} characters")),
        _ => Ok(s),
    }
}

/// A first or last name: 1 to 100 characters after trimming (spec limits).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PersonName(String);

impl PersonName {
    /// The most characters of a name (spec, Limits): the one declaration that request validation
    /// and the OpenAPI schema use too.
    pub const MAX_CHARS: usize = 100;

    /// Parses; errors when empty after trimming, longer than [`Self::MAX_CHARS`] characters, or
    /// holding a control character ([`single_line`]).
    pub fn parse(raw: &str) -> Result<PersonName, String> {
        let s = raw.trim();
        single_line(s)?;
        bounded(s, Self::MAX_CHARS).map(|s| PersonName(s.to_string()))
    }
    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The client's own identifier of a person: 1 to 255 characters, kept exactly as sent.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ExternalId(String);

impl ExternalId {
    /// The most characters of an external id (spec, Limits).
    pub const MAX_CHARS: usize = 255;

    /// Parses; errors when empty, longer than [`Self::MAX_CHARS`] characters, or holding a
    /// control character ([`single_line`]).
    pub fn parse(raw: &str) -> Result<ExternalId, String> {
        single_line(raw)?;
        bounded(raw, Self::MAX_CHARS).map(|s| ExternalId(s.to_string()))
    }
    /// The identifier.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A person label (spec: `candidate` or `employee`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Label {
    /// `candidate`
    Candidate,
    /// `employee`
    Employee,
}

impl Label {
    /// Parses the wire value.
    pub fn parse(s: &str) -> Result<Label, String> {
        match s {
            "candidate" => Ok(Label::Candidate),
            "employee" => Ok(Label::Employee),
            _ => Err("must be one of: candidate, employee".into()),
        }
    }
    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            Label::Candidate => "candidate",
            Label::Employee => "employee",
        }
    }
}

/// The set of labels of a person; empty means "other". Printed in the order candidate, employee.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Labels {
    /// Has `candidate`.
    pub candidate: bool,
    /// Has `employee`.
    pub employee: bool,
}

impl Labels {
    /// The default of a new person: `["candidate"]` (spec, Person.labels).
    pub const DEFAULT: Labels = Labels { candidate: true, employee: false };
    /// The most items of a list of labels (there are two labels).
    pub const MAX_ITEMS: usize = 2;

    /// Parses a list of at most [`Self::MAX_ITEMS`] labels; duplicates are folded. Errors are per item
    /// (`(index, message)`) or for the whole list (`None` index).
    pub fn parse(items: &[String]) -> Result<Labels, Vec<(Option<usize>, String)>> {
        let mut errs = Vec::new();
        if items.len() > Self::MAX_ITEMS {
            errs.push((None, format!("must have at most {} items", Self::MAX_ITEMS)));
        }
        let mut l = Labels::default();
        for (i, it) in items.iter().enumerate() {
            match Label::parse(it) {
                Ok(Label::Candidate) => l.candidate = true,
                Ok(Label::Employee) => l.employee = true,
                Err(m) => errs.push((Some(i), m)),
            }
        }
        if errs.is_empty() {
            Ok(l)
        } else {
            Err(errs)
        }
    }
    /// The wire list.
    pub fn to_vec(self) -> Vec<&'static str> {
        let mut v = Vec::new();
        if self.candidate {
            v.push("candidate");
        }
        if self.employee {
            v.push("employee");
        }
        v
    }
}

/// A tag name as sent: 1 to 50 characters after trimming (spec limits). The organization's tag
/// catalogue maps it onto its canonical spelling (D14).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TagName(String);

impl TagName {
    /// The most characters of a tag name (spec, Limits).
    pub const MAX_CHARS: usize = 50;
    /// The most tags one request sets on a person (spec, Limits).
    pub const MAX_PER_PERSON: usize = 50;

    /// Parses; errors when empty after trimming, longer than [`Self::MAX_CHARS`] characters, or
    /// holding a control character ([`single_line`]).
    pub fn parse(raw: &str) -> Result<TagName, String> {
        let s = raw.trim();
        single_line(s)?;
        bounded(s, Self::MAX_CHARS).map(|s| TagName(s.to_string()))
    }
    /// The spelling as sent (trimmed).
    pub fn as_str(&self) -> &str {
        &self.0
    }
    /// The case-insensitive identity of the tag within an organization (D14).
    pub fn key(&self) -> String {
        self.0.to_lowercase()
    }
}

/// A tag of the organization's catalogue: the first spelling wins (D14).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Tag {
    /// Catalogue entry id.
    pub id: crate::ids::TagId,
    /// Canonical spelling.
    pub name: String,
}

/// Sorts tags case-insensitively (D14), ties broken by spelling, and removes duplicate ids.
pub fn sort_tags(tags: &mut Vec<Tag>) {
    tags.sort_by(|a, b| a.name.to_lowercase().cmp(&b.name.to_lowercase()).then(a.name.cmp(&b.name)));
    tags.dedup_by(|a, b| a.id == b.id);
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn names_are_1_to_100_chars() {
        assert!(PersonName::parse("").is_err());
        assert!(PersonName::parse("   ").is_err());
        assert!(PersonName::parse(&"é".repeat(100)).is_ok());
        assert!(PersonName::parse(&"é".repeat(101)).is_err());
    }

    #[test]
    fn external_id_is_1_to_255_chars() {
        assert!(ExternalId::parse("").is_err());
        assert!(ExternalId::parse(&"x".repeat(255)).is_ok());
        assert!(ExternalId::parse(&"x".repeat(256)).is_err());
    }

    #[test]
    fn labels_parse_at_most_two() {
        let l = Labels::parse(&["employee".into(), "candidate".into()]).unwrap();
        assert_eq!(l.to_vec(), vec!["candidate", "employee"]);
        assert!(Labels::parse(&["x".into()]).is_err());
        assert!(Labels::parse(&["candidate".into(), "candidate".into(), "employee".into()]).is_err());
        assert_eq!(Labels::parse(&[]).unwrap().to_vec(), Vec::<&str>::new());
    }

    #[test]
    fn tags_sort_case_insensitively() {
        let t = |n: &str, i: u128| Tag { id: crate::ids::TagId(uuid::Uuid::from_u128(i)), name: n.into() };
        let mut v = vec![t("beta", 1), t("Alpha", 2), t("gamma", 3), t("alpha2", 4)];
        sort_tags(&mut v);
        let names: Vec<_> = v.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, vec!["Alpha", "alpha2", "beta", "gamma"]);
    }
}
