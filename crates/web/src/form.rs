//! `application/x-www-form-urlencoded` bodies and query strings as (name, value) pairs, so that a
//! name may repeat (checkboxes). Bounded by actix-web's payload limit (256 kB).

use url::form_urlencoded;

/// A parsed form.
#[derive(Clone, Debug, Default)]
pub struct Form(pub Vec<(String, String)>);

impl Form {
    /// Parses a body or a query string (bad percent-encoding is read as is, never an error).
    pub fn parse(raw: &[u8]) -> Form {
        Form(form_urlencoded::parse(raw).map(|(k, v)| (k.into_owned(), v.into_owned())).collect())
    }

    /// The first value of `name`, trimmed; `None` when missing or blank.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.iter().find(|(k, _)| k == name).map(|(_, v)| v.trim()).filter(|v| !v.is_empty())
    }

    /// Every non-blank value of `name`, in order.
    pub fn all(&self, name: &str) -> Vec<String> {
        self.0.iter().filter(|(k, _)| k == name).map(|(_, v)| v.trim().to_string()).filter(|v| !v.is_empty()).collect()
    }

    /// Whether a checkbox `name` was checked.
    pub fn checked(&self, name: &str) -> bool {
        self.0.iter().any(|(k, _)| k == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_names_blank_values_and_bad_encoding_are_read_without_error() {
        let f = Form::parse(b"scope=persons%3Aread&scope=webhooks:manage&name=+&q=%zz&x");
        assert_eq!(f.all("scope"), vec!["persons:read", "webhooks:manage"]);
        assert_eq!(f.get("name"), None);
        assert_eq!(f.get("q"), Some("%zz"));
        assert!(f.checked("x"));
        assert!(!f.checked("y"));
    }
}
