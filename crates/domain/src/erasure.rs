//! What erasure removes from stored JSON (D44, D45): the events, delivery payloads and stored
//! idempotent responses that carried a person. Pure: the use cases in
//! [`crate::usecases::privacy`] find the texts through the store and write back what changed.

use crate::person::Person;
use crate::values::Email;
use serde_json::Value;

/// The personal values of one membership as they appear in stored JSON.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Personal {
    /// The address (normalised), replaced by `replacement`.
    pub email: String,
    /// What the address becomes (`erased-{id}@invalid`).
    pub replacement: String,
    /// First and last name and `externalId`: strings equal to one of them become `null`.
    pub fields: Vec<String>,
    /// Tag names: removed from arrays.
    pub tags: Vec<String>,
}

impl Personal {
    /// The values of `p` before erasure, to be replaced by `replacement`.
    pub fn of(p: &Person, replacement: &str) -> Personal {
        let mut fields: Vec<String> = vec![];
        fields.extend(p.first_name.as_ref().map(|n| n.as_str().to_string()));
        fields.extend(p.last_name.as_ref().map(|n| n.as_str().to_string()));
        fields.extend(p.external_id.as_ref().map(|n| n.as_str().to_string()));
        Personal {
            email: p.email.as_str().to_string(),
            replacement: replacement.to_string(),
            fields,
            tags: p.tags.iter().map(|t| t.name.clone()).collect(),
        }
    }

    /// The substrings that find texts that may hold these values: the address as JSON writes it,
    /// in each of its [`spellings`].
    pub fn needles(&self) -> Vec<String> {
        spellings(&self.email).iter().map(|s| json_string_body(s)).collect()
    }

    /// Scrubs one stored text (JSON; anything else is left alone). Returns the new text when
    /// something changed.
    pub fn scrub_text(&self, text: &str) -> Option<String> {
        let mut v: Value = serde_json::from_str(text).ok()?;
        if !mentions(&v, &self.email) {
            return None;
        }
        self.scrub(&mut v);
        Some(v.to_string())
    }

    /// Scrubs a JSON value in place: the address becomes the replacement, names and `externalId`
    /// become `null`, tag names leave their arrays, and the `message` of an object whose `email`
    /// is the address (an invitation to them) becomes `null`.
    pub fn scrub(&self, v: &mut Value) {
        match v {
            Value::String(s) if same_address(s, &self.email) => *s = self.replacement.clone(),
            Value::String(s) if self.fields.iter().any(|f| f == s) => *v = Value::Null,
            Value::Array(items) => {
                items.retain(|x| !x.as_str().is_some_and(|s| self.tags.iter().any(|t| t == s)));
                for x in items {
                    self.scrub(x);
                }
            }
            Value::Object(map) => {
                // An invitation to the person (its `email` is the address): its free-text
                // `message` may name them in any words, so it goes whole (D44, D45, T109).
                let to_them = map.get("email").and_then(Value::as_str).is_some_and(|e| same_address(e, &self.email));
                if to_them {
                    if let Some(m) = map.get_mut("message") {
                        *m = Value::Null;
                    }
                }
                for (_, x) in map.iter_mut() {
                    self.scrub(x);
                }
            }
            _ => {}
        }
    }
}

/// The ways stored texts spell the address `email`: as it is, and with its domain in Unicode
/// when that differs (D55: texts written before domains were stored in ASCII form hold
/// `a@münchen.de` where the address is now `a@xn--mnchen-3ya.de`).
pub fn spellings(email: &str) -> Vec<String> {
    let mut out = vec![email.to_string()];
    if let Ok(e) = Email::from_stored(email) {
        let unicode = e.unicode();
        if unicode != email {
            out.push(unicode);
        }
    }
    out
}

/// Whether the stored string `s` is the address `email`: equal but for ASCII case, or (D55) an
/// address whose domain is spelled in Unicode and which parses to `email`.
fn same_address(s: &str, email: &str) -> bool {
    s.eq_ignore_ascii_case(email)
        || (!s.is_ascii() && s.contains('@') && Email::parse(s).is_ok_and(|e| e.as_str() == email))
}

/// Whether `email` is one of the string values of `v` (not merely a substring of one), in any
/// spelling (D55, see [`spellings`]).
pub fn mentions(v: &Value, email: &str) -> bool {
    match v {
        Value::String(s) => same_address(s, email),
        Value::Array(items) => items.iter().any(|x| mentions(x, email)),
        Value::Object(map) => map.values().any(|x| mentions(x, email)),
        _ => false,
    }
}

/// A string as it appears between the quotes of its JSON form.
fn json_string_body(s: &str) -> String {
    let quoted = Value::String(s.to_string()).to_string();
    quoted[1..quoted.len() - 1].to_string()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ada() -> Personal {
        Personal {
            email: "ada@example.com".into(),
            replacement: "erased-1@invalid".into(),
            fields: vec!["Ada".into(), "ats-7".into()],
            tags: vec!["Remote".into()],
        }
    }

    #[test]
    fn the_persons_values_leave_the_json_and_nothing_else_does() {
        let text = json!({
            "type": "person.created",
            "data": {"id": "p1", "email": "ada@example.com", "firstName": "Ada", "lastName": null,
                     "externalId": "ats-7", "tags": ["Remote", "Backend"], "labels": ["candidate"]},
            "other": "ada@example.com.evil"
        })
        .to_string();
        let out: Value = serde_json::from_str(&ada().scrub_text(&text).unwrap()).unwrap();
        assert_eq!(out["data"]["email"], "erased-1@invalid");
        assert_eq!(out["data"]["firstName"], Value::Null);
        assert_eq!(out["data"]["externalId"], Value::Null);
        assert_eq!(out["data"]["tags"], json!(["Backend"]));
        assert_eq!(out["data"]["labels"], json!(["candidate"]));
        assert_eq!(out["other"], "ada@example.com.evil", "only whole values");
        assert!(!out.to_string().contains("\"Ada\""));
    }

    #[test]
    fn the_message_of_an_invitation_to_the_person_goes_whole() {
        let text = json!({"type": "invitation.created",
            "data": {"email": "ADA@example.com", "message": "Dear Ada Lovelace, welcome", "firstName": "Ada"},
            "other": {"email": "bob@example.com", "message": "Dear Bob"}})
        .to_string();
        let out: Value = serde_json::from_str(&ada().scrub_text(&text).unwrap()).unwrap();
        assert_eq!(out["data"]["message"], Value::Null);
        assert_eq!(out["data"]["email"], "erased-1@invalid");
        assert_eq!(out["other"]["message"], "Dear Bob", "someone else's invitation keeps its message");
    }

    #[test]
    fn texts_about_someone_else_or_not_json_are_left_alone() {
        let other = json!({"data": {"email": "bob@example.com", "firstName": "Ada"}}).to_string();
        assert_eq!(ada().scrub_text(&other), None, "another person named Ada keeps her name");
        assert_eq!(ada().scrub_text("not json ada@example.com"), None);
        assert_eq!(ada().needles(), vec!["ada@example.com".to_string()]);
    }

    /// D55: a text written before domains were stored in ASCII form spells the address with its
    /// Unicode domain; erasing the address finds it and replaces it all the same.
    #[test]
    fn the_address_is_found_and_replaced_in_either_spelling_of_its_domain() {
        let jo = Personal {
            email: "jo@xn--mnchen-3ya.de".into(),
            replacement: "erased-2@invalid".into(),
            fields: vec![],
            tags: vec![],
        };
        assert_eq!(jo.needles(), vec!["jo@xn--mnchen-3ya.de".to_string(), "jo@münchen.de".to_string()]);
        let text = json!({"data": {"email": "jo@münchen.de", "message": "Hi Jo", "cc": "JO@xn--mnchen-3ya.de"},
            "other": "jo@münchen.de.evil"})
        .to_string();
        let out: Value = serde_json::from_str(&jo.scrub_text(&text).unwrap()).unwrap();
        assert_eq!(out["data"]["email"], "erased-2@invalid");
        assert_eq!(out["data"]["cc"], "erased-2@invalid");
        assert_eq!(out["data"]["message"], Value::Null, "an invitation to them");
        assert_eq!(out["other"], "jo@münchen.de.evil", "only whole values");
        assert_eq!(ada().needles().len(), 1, "an ASCII domain has one spelling");
    }
}
