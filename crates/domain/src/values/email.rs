//! Email addresses (D9, D55) and the IDNA form of their domains.

use super::{char_len, single_line};
use std::fmt;
use validator::ValidateEmail;

/// The message of an address that is not one ([`Email::parse`]).
const NOT_AN_ADDRESS: &str = "must be a valid email address";

/// A domain name in its IDNA ASCII form (D55, T145): UTS #46 ToASCII (nontransitional, as
/// browsers do) maps the name (lower-case, width and compatibility forms folded, `。` read as a
/// dot) and writes each label that is not ASCII in Punycode, under the STD3 rules (letters,
/// digits and hyphens, no hyphen first or last in a label) and the DNS lengths (labels of 1 to 63
/// characters, at most 253 in all): `München.DE` → `xn--mnchen-3ya.de`; an ASCII name comes back
/// lower-cased; a Punycode label must decode to a valid one. Errors: not a valid
/// (internationalized) domain name, with an English message.
pub fn ascii_domain(domain: &str) -> Result<String, String> {
    use idna::uts46::{AsciiDenyList, DnsLength, Hyphens, Uts46};
    Uts46::new()
        .to_ascii(domain.as_bytes(), AsciiDenyList::STD3, Hyphens::CheckFirstLast, DnsLength::Verify)
        .map(|d| d.into_owned())
        .map_err(|_| "is not a valid internationalized domain name".into())
}

/// An email address (D9, D55): trimmed and lower-cased, its domain in its IDNA (UTS #46) ASCII
/// form, so that `a@münchen.de` and `a@xn--mnchen-3ya.de` are one address; identity of a person
/// within an organization. The local part is kept as given, lower-cased, and must be ASCII.
/// Stored, compared and answered in this form.
#[derive(Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Email(String);

thread_local! {
    /// The last addresses [`Email::from_stored`] kept as they are, on this thread, the most
    /// recently used first (T291, T300): validity is a property of the text alone, and an import
    /// reads its organization's row, address included, in every transaction, where `validator`'s
    /// regular expression cost 14,000 instructions inside SQLite's single write turn. One entry
    /// was not enough: the person's row read in the same transaction replaced the organization's
    /// address every time, and the expression ran again for it in every import (2-6 % of the
    /// writer thread).
    static STORED: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// How many addresses [`STORED`] keeps.
const STORED_KEPT: usize = 8;

/// Whether `s` is one of the addresses of [`STORED`]; a hit moves it to the front.
fn stored_before(s: &str) -> bool {
    STORED.with(|kept| {
        let mut kept = kept.borrow_mut();
        match kept.iter().position(|k| k == s) {
            Some(i) => {
                kept[..=i].rotate_right(1);
                true
            }
            None => false,
        }
    })
}

/// Keeps `s` at the front of [`STORED`], the least recently used address out when it is full.
fn keep_stored(s: &str) {
    STORED.with(|kept| {
        let mut kept = kept.borrow_mut();
        let slot =
            if kept.len() < STORED_KEPT { String::with_capacity(s.len()) } else { kept.pop().unwrap_or_default() };
        kept.insert(0, slot);
        kept[0].clear();
        kept[0].push_str(s);
    });
}

impl Email {
    /// The most characters of an address, in its ASCII form (the SMTP path limit).
    pub const MAX_CHARS: usize = 254;

    /// Parses: trims, lower-cases (D9), converts the domain to its ASCII form ([`ascii_domain`],
    /// D55; an address literal such as `[192.0.2.1]` is kept), then checks the address as
    /// `validator` does (the HTML form rule) and its length (at most [`Self::MAX_CHARS`], in ASCII
    /// form). Errors (English messages): empty; a control character; a local part (before the
    /// last `@`) that is not ASCII; a domain that is not a valid internationalized domain name;
    /// anything else that is not an address.
    pub fn parse(raw: &str) -> Result<Email, String> {
        let s = raw.trim().to_lowercase();
        if s.is_empty() {
            return Err("must not be empty".into());
        }
        single_line(&s)?;
        let Some((local, domain)) = s.rsplit_once('@') else { return Err(NOT_AN_ADDRESS.into()) };
        if !local.is_ascii() {
            return Err(format!("{NOT_AN_ADDRESS}: the part before @ must be ASCII"));
        }
        let domain = if domain.starts_with('[') {
            domain.to_string()
        } else {
            match ascii_domain(domain) {
                Ok(d) => d,
                // An ASCII name without Punycode labels is simply not an address's domain.
                Err(_) if domain.is_ascii() && !domain.contains("xn--") => return Err(NOT_AN_ADDRESS.into()),
                Err(why) => return Err(format!("{NOT_AN_ADDRESS}: its domain {why}")),
            }
        };
        let s = format!("{local}@{domain}");
        if char_len(&s) > Self::MAX_CHARS || !s.validate_email() {
            return Err(NOT_AN_ADDRESS.into());
        }
        Ok(Email(s))
    }
    /// An address as the store holds it (D55): kept as it is when it is an address as
    /// [`Email::parse`] checked them before domains were stored in ASCII form (trimmed,
    /// lower-cased, valid; every address [`Email::parse`] makes is one), so that a row written
    /// before, which the start-up normalization left alone because it collides with another,
    /// reads and writes back unchanged instead of turning into the other's address; anything
    /// else is parsed. Errors: as [`Email::parse`].
    pub fn from_stored(s: &str) -> Result<Email, String> {
        if !s.is_empty() && stored_before(s) {
            return Ok(Email(s.to_string()));
        }
        #[cfg(test)]
        tests::CHECKED.with(|n| n.set(n.get() + 1));
        let as_before = !s.is_empty()
            && s.trim() == s
            && s.to_lowercase() == s
            && single_line(s).is_ok()
            && char_len(s) <= Self::MAX_CHARS
            && s.validate_email();
        if as_before {
            keep_stored(s);
            Ok(Email(s.to_string()))
        } else {
            Email::parse(s)
        }
    }
    /// The address an erased membership keeps (D44): `erased-{id}@invalid`.
    pub fn erased(id: crate::ids::PersonId) -> Email {
        Self::erased_record(id.0)
    }
    /// `erased-{id}@invalid` for any erased record (an invitation without a membership, D45).
    pub fn erased_record(id: uuid::Uuid) -> Email {
        Email(format!("erased-{id}@invalid"))
    }
    /// The normalized address.
    pub fn as_str(&self) -> &str {
        &self.0
    }
    /// The part after the last `@`: lower-case, in ASCII form (D55).
    pub fn domain(&self) -> &str {
        self.0.rsplit_once('@').map(|(_, d)| d).unwrap_or("")
    }
    /// The address with its domain in Unicode (UTS #46 ToUnicode, D55): `a@xn--mnchen-3ya.de` is
    /// `a@münchen.de`. The address itself when its domain has no Punycode label. How data
    /// written before domains were stored in ASCII form spells the address (stored events,
    /// for erasure and export).
    pub fn unicode(&self) -> String {
        use idna::uts46::{AsciiDenyList, Hyphens, Uts46};
        let Some((local, domain)) = self.0.rsplit_once('@') else { return self.0.clone() };
        if !domain.contains("xn--") {
            return self.0.clone();
        }
        match Uts46::new().to_unicode(domain.as_bytes(), AsciiDenyList::EMPTY, Hyphens::Allow) {
            (d, Ok(())) => format!("{local}@{d}"),
            (_, Err(_)) => self.0.clone(),
        }
    }
}

impl fmt::Display for Email {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    thread_local! {
        /// How many texts [`Email::from_stored`] checked on this thread.
        pub(super) static CHECKED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }

    #[test]
    fn email_is_trimmed_and_lowercased() {
        assert_eq!(Email::parse("  Ada@Example.COM ").unwrap().as_str(), "ada@example.com");
        assert_eq!(Email::parse("a@b.co").unwrap().domain(), "b.co");
        // D44: the erased address is a valid address (stored and read back like any other).
        let erased = Email::erased(crate::ids::PersonId(uuid::Uuid::from_u128(5)));
        assert_eq!(Email::parse(erased.as_str()).unwrap(), erased);
    }

    /// D55: the domain is stored in its IDNA (UTS #46) ASCII form, so every spelling of an
    /// internationalized domain is one address; the local part is kept, lower-cased (D9).
    #[test]
    fn email_domains_take_their_idna_ascii_form_d55() {
        let want = "a@xn--mnchen-3ya.de";
        for spelling in [
            "a@münchen.de",
            "a@xn--mnchen-3ya.de",
            " A@MÜNCHEN.DE ",
            "A@XN--MNCHEN-3YA.DE",
            "a@mu\u{308}nchen.de",
            "a@münchen\u{3002}de",
            "a@\u{ff4d}\u{fc}\u{ff4e}\u{ff43}\u{ff48}\u{ff45}\u{ff4e}.de",
        ] {
            let e = Email::parse(spelling).unwrap();
            assert_eq!(e.as_str(), want, "{spelling:?}");
            assert_eq!(e.domain(), "xn--mnchen-3ya.de");
            assert_eq!(e.unicode(), "a@münchen.de");
            assert_eq!(Email::parse(&e.unicode()).unwrap(), e, "the Unicode form parses back");
        }
        assert_eq!(Email::parse("Jo.Doe+X@Bücher.example").unwrap().as_str(), "jo.doe+x@xn--bcher-kva.example");
        assert_eq!(Email::parse("a@faß.de").unwrap().as_str(), "a@xn--fa-hia.de", "nontransitional: ß is kept");
        assert_eq!(Email::parse("ada@example.com").unwrap().unicode(), "ada@example.com");
        assert_eq!(Email::parse("a@[192.0.2.1]").unwrap().as_str(), "a@[192.0.2.1]", "an address literal is kept");
    }

    #[test]
    fn email_refuses_what_is_not_an_internationalized_address_d55() {
        let idna = |raw: &str| Email::parse(raw).unwrap_err();
        for bad in ["a@xn--zz-.de", "a@-münchen.de", "a@münchen-.de", "a@mün chen.de", "a@mün_chen.de", "a@münchen..de"]
        {
            assert_eq!(
                idna(bad),
                "must be a valid email address: its domain is not a valid internationalized domain name",
                "{bad:?}"
            );
        }
        assert_eq!(idna("jürgen@example.de"), "must be a valid email address: the part before @ must be ASCII");
        for plain in ["a@b..com", "a@-b.com", "a@", "a@b_c.com"] {
            assert_eq!(idna(plain), "must be a valid email address", "{plain:?}");
        }
        // 254 characters at most, counted in ASCII form: 10 Unicode characters take more there.
        let label = "ü".repeat(10);
        let long = format!("{}@{label}.de", "x".repeat(254 - 14));
        assert!(char_len(&long) <= 254 && Email::parse(&long).is_err());
    }

    /// D55: what the store holds is read as it is, also an address written before domains were
    /// stored in ASCII form, so that a row left alone (a collision) writes back unchanged.
    #[test]
    fn stored_addresses_read_as_they_are_d55() {
        assert_eq!(Email::from_stored("a@münchen.de").unwrap().as_str(), "a@münchen.de");
        assert_eq!(Email::from_stored("a@xn--mnchen-3ya.de").unwrap().as_str(), "a@xn--mnchen-3ya.de");
        assert_eq!(Email::from_stored(" A@Example.com").unwrap().as_str(), "a@example.com", "parsed otherwise");
        assert!(Email::from_stored("not an address").is_err());
    }

    /// T291: the address kept last is remembered, and only an address that was kept: the same
    /// answers follow in any order of valid and invalid texts.
    #[test]
    fn a_stored_address_read_again_reads_the_same() {
        for _ in 0..2 {
            assert_eq!(Email::from_stored("a@münchen.de").unwrap().as_str(), "a@münchen.de");
            assert_eq!(Email::from_stored("a@münchen.de").unwrap().as_str(), "a@münchen.de");
            assert!(Email::from_stored("not an address").is_err());
            assert!(Email::from_stored("not an address").is_err());
            assert_eq!(Email::from_stored(" A@Example.com").unwrap().as_str(), "a@example.com");
            assert_eq!(Email::from_stored(" A@Example.com").unwrap().as_str(), "a@example.com");
            assert!(Email::from_stored("").is_err());
        }
    }

    /// T300: the organization's address read in every transaction, between persons' addresses
    /// that are new each time, is checked once; the least recently used address leaves first.
    #[test]
    fn an_address_read_between_new_ones_is_checked_once_t300() {
        let checked = || CHECKED.with(|n| n.get());
        let org = "hr@org.example";
        Email::from_stored(org).unwrap();
        let start = checked();
        for i in 0..50 {
            assert_eq!(Email::from_stored(org).unwrap().as_str(), org);
            let person = format!("p{i}@persons.example");
            assert_eq!(Email::from_stored(&person).unwrap().as_str(), person);
        }
        assert_eq!(checked() - start, 50, "one check per new address, none for the organization's");
        for i in 0..STORED_KEPT {
            Email::from_stored(&format!("q{i}@persons.example")).unwrap();
        }
        let before = checked();
        Email::from_stored(org).unwrap();
        assert_eq!(checked() - before, 1, "pushed out by {STORED_KEPT} newer addresses");
    }

    #[test]
    fn email_rejects_garbage() {
        for bad in ["", "  ", "no-at", "@x.com", "a@", "a b@c.com", "a@@b.com"] {
            assert!(Email::parse(bad).is_err(), "{bad}");
        }
    }
}
