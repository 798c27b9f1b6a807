//! What a password must be: 8 to 256 characters, not one of the most common
//! passwords, not containing the username, not one character over and over.
//!
//! The common passwords are those of at least 8 characters among the 20,000 most
//! frequent of Mark Burnett's ten million leaked passwords (released into the public
//! domain), as ranked in the frequency list of the `zxcvbn` password estimator (MIT
//! licence): `common_passwords.txt`, one a line, in the binary.

use std::collections::HashSet;
use std::sync::LazyLock;

use crate::error::GameError;

/// The fewest characters of a password.
pub const PASSWORD_MIN_CHARS: usize = 8;

/// The most characters of a password (hashing is the cost; this bounds it).
const PASSWORD_MAX_CHARS: usize = 256;

/// The common passwords, in lower case.
static COMMON: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    include_str!("common_passwords.txt")
        .lines()
        .filter(|l| !l.is_empty())
        .collect()
});

/// Whether `password` is one of the common passwords, whatever its case.
fn is_common(password: &str) -> bool {
    COMMON.contains(password.to_lowercase().as_str())
}

/// Checks a new password of the account `username`.
///
/// # Errors
/// [`GameError::Unprocessable`], saying why the password is refused.
pub(crate) fn check_password(password: &str, username: &str) -> Result<(), GameError> {
    let refuse = |why: String| Err(GameError::Unprocessable(format!("password: {why}")));
    let chars = password.chars().count();
    if chars < PASSWORD_MIN_CHARS {
        return refuse(format!("at least {PASSWORD_MIN_CHARS} characters"));
    }
    if chars > PASSWORD_MAX_CHARS {
        return refuse(format!("at most {PASSWORD_MAX_CHARS} characters"));
    }
    let mut distinct = password.chars().filter(|c| !c.is_whitespace());
    let first = distinct.next();
    if first.is_none_or(|first| distinct.all(|c| c == first)) {
        return refuse("one character over and over is guessed at once".into());
    }
    if is_common(password) {
        return refuse(
            "one of the most common passwords, which are guessed first: choose another".into(),
        );
    }
    if !username.is_empty()
        && password
            .to_lowercase()
            .contains(&username.to_ascii_lowercase())
    {
        return refuse("it contains the username, which everyone can see".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn why(password: &str, username: &str) -> String {
        match check_password(password, username) {
            Err(GameError::Unprocessable(m)) => m,
            other => panic!("{password:?} not refused: {other:?}"),
        }
    }

    #[test]
    fn passwords_have_8_to_256_characters() {
        assert!(why("1234567", "ann").contains("at least 8"));
        assert!(check_password("a quiet kalah", "ann").is_ok());
        assert!(why(&"xy".repeat(129), "ann").contains("at most 256"));
    }

    #[test]
    fn common_passwords_are_refused_whatever_their_case() {
        assert!(COMMON.len() > 5000, "{}", COMMON.len());
        for common in [
            "password",
            "12345678",
            "PassWord1",
            "iloveyou",
            "qwertyuiop",
        ] {
            assert!(why(common, "ann").contains("most common"), "{common}");
        }
        assert!(check_password("sowing seeds at dawn", "ann").is_ok());
    }

    #[test]
    fn one_character_repeated_is_refused() {
        assert!(why("        ", "ann").contains("one character"));
        assert!(why("zzzzzzzzzzzz", "ann").contains("one character"));
    }

    #[test]
    fn a_password_containing_the_username_is_refused() {
        assert!(why("Alice123!", "alice").contains("username"));
        assert!(why("my-alice-pw", "ALICE").contains("username"));
        assert!(check_password("my-bob-pw!", "alice").is_ok());
    }
}
