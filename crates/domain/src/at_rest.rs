//! Live links at rest (D52, T129): a stored text that carries an invitation link
//! (`{public_url}/i/{token}`, D20) or a dashboard sign-in link (`…/sign-in/{token}`) keeps the
//! link's token sealed with the [`SecretBox`], so a copy of the database alone joins no invitation
//! and opens no dashboard session. The rest of the text stays readable where the store searches it
//! (erasure finds an address in stored events, deliveries and responses, D45).
//!
//! [`conceal_links`] is what the store writes, [`reveal_links`] what it reads back: the exact text
//! it was given. A link's token is 43 base64url characters ([`TOKEN_CHARS`]) after one of
//! [`LINK_PATHS`]; the sealed form, `sealed:v1:{key id}:{base64url}` ([`SecretBox::seal`]), takes
//! its place after the same path.

use crate::ports::SecretBox;

/// The path segments that a live token follows: invitation links (D20) and dashboard sign-in
/// links.
pub const LINK_PATHS: [&str; 2] = ["/i/", "/sign-in/"];

/// The length of a link's token: 32 random bytes in base64url without padding.
pub const TOKEN_CHARS: usize = 43;

fn token_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-' || b == b'_'
}

/// A sealed value's characters: base64url and the `:` separators of its prefix.
fn sealed_char(b: u8) -> bool {
    token_char(b) || b == b':'
}

/// `text` with every link token sealed. Text without a link is returned as it is (no copy
/// beyond the one returned).
pub fn conceal_links(text: &str, sealer: &dyn SecretBox) -> String {
    if !LINK_PATHS.iter().any(|p| text.contains(p)) {
        return text.to_string();
    }
    rewrite(text, |token| (token.len() == TOKEN_CHARS && token.bytes().all(token_char)).then(|| sealer.seal(token)))
}

/// `text` with every sealed link token opened again: the text [`conceal_links`] was given. A
/// sealed value that no configured key opens is left as it is (the link then does not work,
/// which is all a wrong key can cost here).
pub fn reveal_links(text: &str, sealer: &dyn SecretBox) -> String {
    if !text.contains("sealed:") {
        return text.to_string();
    }
    rewrite(text, |token| {
        if !crate::ports::is_sealed(token) {
            return None;
        }
        sealer.open(token).ok().filter(|t| t.len() == TOKEN_CHARS && t.bytes().all(token_char))
    })
}

/// Replaces what follows each of [`LINK_PATHS`] (the longest run of token or sealed characters)
/// by `f(run)` where `f` gives a replacement.
fn rewrite(text: &str, f: impl Fn(&str) -> Option<String>) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    let mut i = 0;
    while i < bytes.len() {
        let Some(path) = LINK_PATHS.iter().find(|p| bytes[i..].starts_with(p.as_bytes())) else {
            i += 1;
            continue;
        };
        let start = i + path.len();
        let end = start + bytes[start..].iter().take_while(|b| sealed_char(**b)).count();
        if let Some(new) = f(&text[start..end]) {
            out.push_str(&text[copied..start]);
            out.push_str(&new);
            copied = end;
        }
        i = end.max(i + 1);
    }
    out.push_str(&text[copied..]);
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// A box that "seals" reversibly and visibly, as the real one does (`sealed:` prefix).
    struct Rot;
    impl SecretBox for Rot {
        fn seal(&self, plaintext: &str) -> String {
            format!("sealed:v1:k:{}", plaintext.chars().rev().collect::<String>())
        }
        fn open(&self, stored: &str) -> Result<String, String> {
            let body = stored.strip_prefix("sealed:v1:k:").ok_or("not mine")?;
            Ok(body.chars().rev().collect())
        }
        fn needs_reseal(&self, _: &str) -> bool {
            false
        }
    }

    const TOKEN: &str = "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde";

    #[test]
    fn d52_link_tokens_are_sealed_and_read_back_exactly() {
        assert_eq!(TOKEN.len(), TOKEN_CHARS);
        let text = format!(
            "{{\"url\":\"https://t.example/i/{TOKEN}\",\"email\":\"a@example.com\"}} and \
             https://t.example/dashboard/sign-in/{TOKEN}\nend"
        );
        let stored = conceal_links(&text, &Rot);
        assert!(!stored.contains(TOKEN), "{stored}");
        assert!(stored.contains("a@example.com"), "the rest stays searchable");
        assert_eq!(stored.matches("/i/sealed:v1:").count() + stored.matches("/sign-in/sealed:v1:").count(), 2);
        assert_eq!(reveal_links(&stored, &Rot), text);
    }

    #[test]
    fn d52_text_without_a_token_is_left_alone() {
        for text in [
            "",
            "/i/",
            "/i/short",
            "no links at all",
            "https://x.example/i/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcdeX (44 characters)",
            "ends with /sign-in/",
            "sealed:v1:k:abc without a path",
            "/i/sealed:v1:other:zzz (a key this box does not have)",
        ] {
            assert_eq!(conceal_links(text, &Rot), text);
            assert_eq!(reveal_links(text, &Rot), text);
        }
    }

    #[test]
    fn d52_multibyte_text_around_links_survives() {
        let text = format!("Grüße — /i/{TOKEN}ü and /i/{TOKEN}");
        let stored = conceal_links(&text, &Rot);
        assert!(!stored.contains(TOKEN));
        assert_eq!(reveal_links(&stored, &Rot), text);
    }
}
