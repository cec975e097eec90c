//! How strong `TALENT_ADMIN_TOKEN` must be (D53, T152): at least [`MIN_BITS`] bits of entropy by
//! a conservative estimate, checked at start-up by every command that serves the admin API
//! (`talent serve`, `talent demo`); a weaker token stops the start-up with [`check`]'s message.
//!
//! The estimate judges the string only; it cannot know how the token was made. It is meant to
//! catch accidents (a placeholder, a repeated character, a short, sequential or repeated token)
//! and to accept what a random generator gives (`openssl rand -hex 32`, `openssl rand -base64
//! 32`, 32 random bytes in base64url). A phrase of words or a keyboard walk may pass it without
//! being random, hence the advice in the message: generate the token.

use std::collections::HashSet;

/// The least estimated entropy of an admin token, in bits (D53).
pub const MIN_BITS: f64 = 128.0;

/// The conservative estimate of the entropy of `token`, in bits:
/// `counted characters × log2(min(alphabet, distinct characters))`, where
///
/// * the alphabet is the sum of the character classes present (lower-case letters 26, upper-case
///   letters 26, digits 10, anything else 33), at most 16 when every character is a hexadecimal
///   digit of one case;
/// * bits per character are capped by the number of distinct characters in the token (36 × `a`
///   has one: 0 bits; `abab…` has two: 1 bit each);
/// * a character is counted unless it equals, or is one code point above or below, the one before
///   it (runs and sequences: `aaaa`, `abcd`, `4321`), or it ends a three-character chunk already
///   seen earlier in the token, letters compared without case (repeats: `abcabc`,
///   `Password1Password1`).
///
/// 64 random hexadecimal digits come out near 210 bits (never below 150 in practice), 43 random
/// base64url characters near 205; 32 random hexadecimal digits (128 true bits) near 100, so they
/// are refused: the estimate under-counts rather than over-counts.
pub fn estimated_bits(token: &str) -> f64 {
    let chars: Vec<char> = token.chars().collect();
    let distinct = chars.iter().collect::<HashSet<_>>().len();
    let symbols = alphabet(&chars).min(distinct);
    if symbols < 2 {
        return 0.0;
    }
    let mut chunks = HashSet::new();
    let mut counted = 0u32;
    for (i, c) in chars.iter().enumerate() {
        let step = i > 0 && (i64::from(u32::from(*c)) - i64::from(u32::from(chars[i - 1]))).abs() <= 1;
        let repeat = i >= 2 && !chunks.insert([i - 2, i - 1, i].map(|j| chars[j].to_ascii_lowercase()));
        if !step && !repeat {
            counted += 1;
        }
    }
    f64::from(counted) * (symbols as f64).log2()
}

/// The size of the alphabet `chars` appear to be drawn from (see [`estimated_bits`]).
fn alphabet(chars: &[char]) -> usize {
    let has = |f: fn(&char) -> bool| chars.iter().any(f);
    let mut n = 0;
    n += if has(char::is_ascii_lowercase) { 26 } else { 0 };
    n += if has(char::is_ascii_uppercase) { 26 } else { 0 };
    n += if has(char::is_ascii_digit) { 10 } else { 0 };
    n += if has(|c| !c.is_ascii_alphanumeric()) { 33 } else { 0 };
    let hex = |f: fn(&char) -> bool| chars.iter().all(|c| c.is_ascii_digit() || (c.is_ascii_hexdigit() && f(c)));
    if hex(char::is_ascii_lowercase) || hex(char::is_ascii_uppercase) {
        n = n.min(16);
    }
    n
}

/// Whether `token` may be the admin token (D53): `Ok` at [`MIN_BITS`] or more. Errors: the
/// message to stop the start-up with, naming `TALENT_ADMIN_TOKEN` and how to make one; it never
/// contains the token.
pub fn check(token: &str) -> Result<(), String> {
    let bits = estimated_bits(token);
    if bits >= MIN_BITS {
        return Ok(());
    }
    Err(format!(
        "TALENT_ADMIN_TOKEN is too weak: about {bits:.0} bits of entropy by Talent's estimate, at least {MIN_BITS:.0} \
         needed (it has {} characters; a repeated character, a sequence, a repeated chunk or a short token is \
         guessable); generate one with `openssl rand -hex 32`",
        token.chars().count()
    ))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
    use base64::Engine as _;
    use ring::rand::{SecureRandom, SystemRandom};

    fn random(n: usize) -> Vec<u8> {
        let mut b = vec![0u8; n];
        SystemRandom::new().fill(&mut b).unwrap();
        b
    }

    /// D53: what a random generator makes passes, every time: `openssl rand -hex 32` (64 hex
    /// digits), `openssl rand -base64 32` (44 characters with padding), 43 base64url characters,
    /// and the token `talent demo` makes.
    #[test]
    fn random_tokens_of_32_bytes_pass_d53() {
        for _ in 0..2_000 {
            let b = random(32);
            for t in [hex::encode(&b), hex::encode_upper(&b), STANDARD.encode(&b), URL_SAFE_NO_PAD.encode(&b)] {
                assert!(check(&t).is_ok(), "{t}: {}", estimated_bits(&t));
            }
            let demo = format!("adm_{}", URL_SAFE_NO_PAD.encode(&b));
            assert!(check(&demo).is_ok(), "{demo}: {}", estimated_bits(&demo));
        }
        // Two of each, made with openssl once.
        for t in [
            "5466b8833a42550cf1418fac619b226c0b7b1b3356ca09fc15881d7024135474",
            "eb214fe3ee434ebca47087bdbca65c39ec8a40c161ae58e9824b3ec843e02e2e",
            "Gg+gdqFjtt9Yrjpm8BLnT26Lv3yvFBfXYjhyqdpZ4xQ=",
            "YsyQsIYOR3X5ydE33up7ePOwhzN+VmsXK3DDC4SDCjw=",
        ] {
            assert!(check(t).is_ok(), "{t}: {}", estimated_bits(t));
        }
    }

    /// D53: a repeated character, short tokens, sequences, repeated chunks and placeholders are
    /// refused, with a message that names the variable and the way to make a token, never the
    /// token itself.
    #[test]
    fn weak_tokens_are_refused_naming_the_variable_d53() {
        let weak = [
            "a".repeat(36),
            "x".repeat(64),
            String::new(),
            "CHANGE-ME".into(),
            hex::encode(random(15)),
            URL_SAFE_NO_PAD.encode(random(12)),
            "0123456789abcdef".repeat(4),
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".into(),
            "Password1".repeat(5),
            "Xy7!".repeat(12),
            hex::encode(random(8)).repeat(4),
            "adm_bench_0123456789abcdef0123456789".into(),
            "ab".repeat(40),
        ];
        for t in weak {
            let err = check(&t).unwrap_err();
            assert!(err.contains("TALENT_ADMIN_TOKEN") && err.contains("openssl rand -hex 32"), "{err}");
            assert!(t.len() < 8 || !err.contains(&t), "the token is not echoed: {err}");
        }
    }

    #[test]
    fn the_estimate_follows_its_documented_rules_d53() {
        assert_eq!(estimated_bits(&"a".repeat(36)), 0.0, "one distinct character");
        assert_eq!(estimated_bits(&"ax".repeat(4)), 4.0, "a, x, axa, xax counted, then repeats; 1 bit each");
        assert_eq!(estimated_bits(&"ab".repeat(4)), 1.0, "b follows a: a sequence");
        assert_eq!(estimated_bits("0f3a"), 4.0 * 2.0, "hexadecimal, 4 distinct: 2 bits each");
        assert_eq!(estimated_bits("acegikmo"), 8.0 * 3.0, "8 distinct lower-case letters: 3 bits each");
        assert_eq!(estimated_bits("abcdefgh"), 3.0, "a sequence counts its first character only");
        assert_eq!(alphabet(&['a', 'Z', '0', '-']), 95);
        assert_eq!(alphabet(&['0', '9']), 10);
        assert_eq!(alphabet(&['0', 'f']), 16);
        assert_eq!(alphabet(&['0', 'F']), 16);
        assert_eq!(alphabet(&['0', 'f', 'F']), 62, "mixed case is not one hexadecimal spelling");
    }
}
