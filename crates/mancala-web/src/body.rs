//! Request bodies: JSON objects sent as `application/json`, read into the request's
//! type, with errors that say which field is wrong and what it must be.

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::http::{HeaderMap, StatusCode, header};
use serde::de::DeserializeOwned;

use crate::error::{BodyError, GameError};

/// The JSON object of a request body, or the error to answer with: 413 past the limit,
/// 415 when it is not sent as JSON, 400 when it is not the expected JSON object.
///
/// The body must be an object: serde would also read a struct from an array of its
/// fields, a form the API does not document. It must come as `application/json`: a
/// `text/plain` or form body is what another site's page may send without asking
/// (no CORS preflight), so it is refused rather than read as JSON.
pub(crate) fn parse_body<T: DeserializeOwned>(
    headers: &HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<T, GameError> {
    let bytes = body.map_err(|r| {
        if r.status() == StatusCode::PAYLOAD_TOO_LARGE {
            GameError::Body(BodyError::TooLarge)
        } else {
            GameError::BadRequest(r.body_text())
        }
    })?;
    let empty = bytes.iter().all(u8::is_ascii_whitespace);
    if !empty && !is_json(headers) {
        return Err(BodyError::NotJson(
            "send the body as JSON, with the header Content-Type: application/json".into(),
        )
        .into());
    }
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Err(GameError::BadRequest(
            "the body must be a JSON object (see docs/api.md)".into(),
        ));
    }
    let mut json = serde_json::Deserializer::from_slice(&bytes);
    let value = serde_path_to_error::deserialize(&mut json)
        .map_err(|e| bad_json(e.inner(), &e.path().to_string()))?;
    json.end().map_err(|e| bad_json(&e, "."))?;
    Ok(value)
}

/// Reads any whole number 0 or more, however large (`#[serde(deserialize_with)]`), so
/// that an answer can name it as sent; anything else is "not a whole number". (Read as
/// `u128`, serde_json calls a string where a number belongs a syntax error.)
pub(crate) fn any_whole_number<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u128, D::Error> {
    struct WholeNumber;
    impl serde::de::Visitor<'_> for WholeNumber {
        type Value = u128;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a whole number, 0 or more")
        }
        fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<u128, E> {
            Ok(u128::from(v))
        }
        fn visit_u128<E: serde::de::Error>(self, v: u128) -> Result<u128, E> {
            Ok(v)
        }
        fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<u128, E> {
            u128::try_from(v).map_err(|_| E::invalid_value(serde::de::Unexpected::Signed(v), &self))
        }
        fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<u128, E> {
            // Past u64, serde_json reads a number as a float.
            if v >= 0.0 && v.fract() == 0.0 {
                #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                return Ok(v as u128);
            }
            Err(E::invalid_value(serde::de::Unexpected::Float(v), &self))
        }
    }
    d.deserialize_any(WholeNumber)
}

/// Whether the request says its body is JSON: `application/json` (any parameters) or
/// another `application/…+json`.
fn is_json(headers: &HeaderMap) -> bool {
    let Some(value) = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
    else {
        return false;
    };
    let essence = value
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    essence == "application/json"
        || (essence.starts_with("application/") && essence.ends_with("+json"))
}

/// The 400 for a body that is not the JSON expected: where the JSON breaks, or which
/// field is wrong and what it must be.
/// `field` is the path to the field (`house`, `time_control.initial_s`), `.` for the
/// body as a whole.
fn bad_json(inner: &serde_json::Error, field: &str) -> GameError {
    if !inner.is_data() {
        return GameError::BadRequest(format!("the body is not valid JSON: {inner}"));
    }
    let message = inner.to_string();
    let message = message
        .strip_suffix(&format!(
            " at line {} column {}",
            inner.line(),
            inner.column()
        ))
        .unwrap_or(&message);
    let field = (field != ".").then_some(field);
    GameError::BadRequest(field_error(field, message))
}

/// A serde message about `field` (`None`: the body as a whole) in words: "house must
/// be a whole number, 0 or more, not the string \"3\"".
fn field_error(field: Option<&str>, message: &str) -> String {
    let wrong = message
        .strip_prefix("invalid type: ")
        .or_else(|| message.strip_prefix("invalid value: "))
        .and_then(|m| m.rsplit_once(", expected "));
    match (field, wrong) {
        (Some(field), Some((got, expected))) => {
            format!(
                "{field} must be {}, not {}",
                expected_words(expected),
                got_words(got)
            )
        }
        // The message names the field itself.
        (Some(_), None) if message.starts_with("unknown field") => message.to_owned(),
        // A type's own `#[serde(expecting = "must be ...")]`, all serde says of an
        // untagged enum.
        (Some(field), None) if message.starts_with("must be ") => format!("{field} {message}"),
        (Some(field), None) => format!("{field}: {message}"),
        (None, _) => message.to_owned(),
    }
}

/// What serde expected, in words.
fn expected_words(expected: &str) -> String {
    match expected {
        "u8" => "a whole number from 0 to 255".into(),
        "u16" => "a whole number from 0 to 65535".into(),
        "u32" | "u64" | "u128" | "usize" => "a whole number, 0 or more".into(),
        "i8" | "i16" | "i32" | "i64" | "i128" | "isize" => "a whole number".into(),
        "f32" | "f64" => "a number".into(),
        "a boolean" => "true or false".into(),
        "a map" => "an object".into(),
        other if other.starts_with("struct ") => "an object".into(),
        other => other.to_owned(),
    }
}

/// What serde got instead, in words: its own words are Rust's (`integer `-1``).
fn got_words(got: &str) -> String {
    let quoted = |prefix: &str| {
        got.strip_prefix(prefix)
            .map(|v| v.trim_matches('`').to_owned())
    };
    if let Some(s) = got.strip_prefix("string ") {
        return format!("the string {s}");
    }
    quoted("integer ")
        .or_else(|| quoted("floating point "))
        .or_else(|| quoted("boolean "))
        .unwrap_or_else(|| match got {
            "map" => "an object".into(),
            "sequence" => "an array".into(),
            "unit value" | "null" => "null".into(),
            other => other.to_owned(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Move {
        #[serde(deserialize_with = "any_whole_number")]
        house: u128,
        ply: u64,
        public: Option<bool>,
    }

    fn error(content_type: Option<&str>, body: &str) -> GameError {
        let mut headers = HeaderMap::new();
        if let Some(t) = content_type {
            headers.insert(header::CONTENT_TYPE, t.parse().unwrap());
        }
        parse_body::<Move>(&headers, Ok(Bytes::from(body.to_owned()))).unwrap_err()
    }

    fn json_error(body: &str) -> String {
        match error(Some("application/json"), body) {
            GameError::BadRequest(m) => m,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn only_a_json_content_type_is_read() {
        let body = r#"{"house":3,"ply":0}"#;
        for t in [
            None,
            Some("text/plain"),
            Some("application/x-www-form-urlencoded"),
        ] {
            assert!(
                matches!(error(t, body), GameError::Body(BodyError::NotJson(_))),
                "{t:?}"
            );
        }
        for t in [
            "application/json",
            "application/json; charset=utf-8",
            "Application/JSON",
        ] {
            let mut headers = HeaderMap::new();
            headers.insert(header::CONTENT_TYPE, t.parse().unwrap());
            let parsed = parse_body::<Move>(&headers, Ok(Bytes::from(body))).unwrap();
            assert_eq!((parsed.house, parsed.ply), (3, 0), "{t}");
        }
    }

    #[test]
    fn a_wrong_field_is_named_with_what_it_must_be() {
        assert_eq!(
            json_error(r#"{"house":"3","ply":0}"#),
            r#"house must be a whole number, 0 or more, not the string "3""#
        );
        assert_eq!(
            json_error(r#"{"house":-1,"ply":0}"#),
            "house must be a whole number, 0 or more, not -1"
        );
        assert_eq!(
            json_error(r#"{"house":1,"ply":0,"public":"yes"}"#),
            r#"public must be true or false, not the string "yes""#
        );
        assert_eq!(json_error(r#"{"house":1}"#), "missing field `ply`");
        assert_eq!(
            json_error(r#"{"house":1,"ply":0,"x":1}"#),
            "unknown field `x`, expected one of `house`, `ply`, `public`"
        );
        assert!(
            json_error(r#"{"house":1,"#).starts_with("the body is not valid JSON: "),
            "syntax errors say where"
        );
    }
}
