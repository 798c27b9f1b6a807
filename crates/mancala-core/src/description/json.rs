//! Descriptions as one line of JSON, for places that hold a game in a single value: a
//! record's `Rules` tag, a database column, an API request.

use super::{Description, DescriptionError};

impl Description {
    /// The description as one line of JSON, which [`Description::from_json`] reads back.
    ///
    /// ```
    /// use mancala_core::description::Description;
    /// let kalah = Description::builtin("kalah").unwrap();
    /// let line = kalah.to_json();
    /// assert!(!line.contains('\n'));
    /// assert_eq!(Description::from_json(&line, "a tag").unwrap(), kalah);
    /// ```
    #[must_use]
    pub fn to_json(&self) -> String {
        serde_json::to_string(self)
            .unwrap_or_else(|e| unreachable!("a description always serializes: {e}"))
    }

    /// Reads and checks a description written by [`Description::to_json`] (`origin`
    /// names where it came from in errors).
    ///
    /// # Errors
    /// The field and why, when the text is not a description or is refused.
    pub fn from_json(text: &str, origin: &str) -> Result<Description, DescriptionError> {
        let mut deserializer = serde_json::Deserializer::from_str(text);
        let description: Description = serde_path_to_error::deserialize(&mut deserializer)
            .map_err(|e| {
                let field = e.path().to_string();
                let field = if field == "." { String::new() } else { field };
                DescriptionError::new(origin, &field, e.into_inner().to_string())
            })?;
        description.check().map_err(|e| e.from(origin))?;
        Ok(description)
    }
}
