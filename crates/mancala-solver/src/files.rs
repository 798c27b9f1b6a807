//! Endgame database files: read back by later solves, written so that an interrupted
//! write never leaves a truncated database behind.

use std::fs::{self, File};
use std::io::{self, BufReader, BufWriter};
use std::path::{Path, PathBuf};

use crate::board::Shape;
use crate::endgame::Endgame;
use crate::error::SolveError;

/// The endgame database in `path` for `shape`'s rules, keeping at most `max_seeds`;
/// `None` if there is no such file.
pub(crate) fn read_endgame(
    path: &Path,
    shape: &Shape,
    max_seeds: usize,
) -> Result<Option<Endgame>, SolveError> {
    let error = |reason: String| SolveError::EndgameFile {
        path: path.display().to_string(),
        reason,
    };
    let file = match File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(error(e.to_string())),
    };
    Endgame::read_from(shape, max_seeds, BufReader::new(file))
        .map(Some)
        .map_err(error)
}

/// Writes `db` to `path` (through a temporary file beside it, renamed into place, so
/// that an interrupted write never leaves a truncated database behind).
pub(crate) fn write_endgame(path: &Path, shape: &Shape, db: &Endgame) -> Result<(), SolveError> {
    let error = |e: io::Error| SolveError::EndgameFile {
        path: path.display().to_string(),
        reason: e.to_string(),
    };
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".partial");
    let temporary = PathBuf::from(temporary);
    let written = File::create(&temporary)
        .and_then(|file| db.write_to(shape, BufWriter::new(file)))
        .and_then(|()| fs::rename(&temporary, path));
    if written.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    written.map_err(error)
}
