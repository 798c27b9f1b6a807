//! Reading and writing descriptions as TOML.

use super::{Description, DescriptionError};

impl Description {
    /// Reads a description from TOML text and checks it ([`Description::check`]).
    /// `origin` names the text in errors (a file name, `--rules`, a request).
    ///
    /// # Errors
    /// A [`DescriptionError`] naming `origin`, the field and why: TOML that does not
    /// parse, a field missing, unknown or of the wrong type, or rules that contradict
    /// each other.
    ///
    /// ```
    /// use mancala_core::description::Description;
    /// let text = Description::builtin("kalah").unwrap().to_toml().replace("seeds = 4", "seeds = 0");
    /// let err = Description::from_toml(&text, "mine.toml").unwrap_err();
    /// assert_eq!(err.to_string(), "mine.toml: board.seeds: must be between 1 and 64, not 0");
    /// let err = Description::from_toml("format = 1\nkey = 3", "mine.toml").unwrap_err();
    /// assert!(err.to_string().starts_with("mine.toml: key: invalid type"), "{err}");
    /// ```
    pub fn from_toml(text: &str, origin: &str) -> Result<Description, DescriptionError> {
        let deserializer = toml::Deserializer::parse(text)
            .map_err(|e| DescriptionError::new(origin, "", e.message().trim_end().to_owned()))?;
        let description: Description =
            serde_path_to_error::deserialize(deserializer).map_err(|e| {
                let field = e.path().to_string();
                let field = if field == "." { String::new() } else { field };
                let why = e.into_inner().message().trim_end().to_owned();
                DescriptionError::new(origin, &field, why)
            })?;
        description.check().map_err(|e| e.from(origin))?;
        Ok(description)
    }

    /// The description as TOML text, which [`Description::from_toml`] reads back.
    #[must_use]
    pub fn to_toml(&self) -> String {
        toml::to_string(self)
            .unwrap_or_else(|e| unreachable!("a description always serializes: {e}"))
    }
}
