//! CSRF tokens (issue 18): the hex HMAC-SHA256 of the session id (signed in) or of the
//! pre-session cookie's value (the sign-in forms), under a server secret. A form's token is
//! checked in constant time ([`ring::hmac::verify`]) before any POST does anything.

use ring::hmac;

/// The token of the forms of a session (`id`: the session's id).
pub fn for_session(key: &hmac::Key, id: uuid::Uuid) -> String {
    hex::encode(hmac::sign(key, format!("session:{id}").as_bytes()).as_ref())
}

/// The token of the sign-in forms, bound to the pre-session cookie's value.
pub fn for_presession(key: &hmac::Key, cookie: &str) -> String {
    hex::encode(hmac::sign(key, format!("presession:{cookie}").as_bytes()).as_ref())
}

/// Whether `token` (from a form) is the token of `session`.
pub fn check_session(key: &hmac::Key, id: uuid::Uuid, token: &str) -> bool {
    check(key, format!("session:{id}").as_bytes(), token)
}

/// Whether `token` (from a form) is the token of pre-session cookie `cookie`.
pub fn check_presession(key: &hmac::Key, cookie: &str, token: &str) -> bool {
    !cookie.is_empty() && check(key, format!("presession:{cookie}").as_bytes(), token)
}

fn check(key: &hmac::Key, msg: &[u8], token: &str) -> bool {
    match hex::decode(token) {
        Ok(tag) => hmac::verify(key, msg, &tag).is_ok(),
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_is_valid_for_its_session_only() {
        let key = hmac::Key::new(hmac::HMAC_SHA256, b"secret");
        let (a, b) = (uuid::Uuid::from_u128(1), uuid::Uuid::from_u128(2));
        let t = for_session(&key, a);
        assert!(check_session(&key, a, &t));
        assert!(!check_session(&key, b, &t));
        assert!(!check_session(&key, a, ""));
        assert!(!check_session(&key, a, "zz"));
        let other = hmac::Key::new(hmac::HMAC_SHA256, b"other");
        assert!(!check_session(&other, a, &t), "a token is bound to the server secret");
        let p = for_presession(&key, "cookie");
        assert!(check_presession(&key, "cookie", &p));
        assert!(!check_presession(&key, "another", &p));
        assert!(!check_presession(&key, "", &for_presession(&key, "")));
        assert!(!check_session(&key, a, &p), "a pre-session token is no session token");
    }
}
