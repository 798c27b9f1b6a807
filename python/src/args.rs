//! Numbers as Python gives them, checked in the library's words: a bad value is a
//! ValueError (or, for something that is not a number at all, a TypeError) naming the
//! value, never an OverflowError from a conversion or a number silently truncated.

use std::time::Duration;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt};

/// A house (or an action) as Python gives it: an int (numpy's too), or a float that
/// is a whole number (3.0, as a policy computed in floats gives it). A float with a
/// fraction, NaN or infinity is a ValueError, a bool or anything else a TypeError.
pub(crate) fn whole_number(value: &Bound<'_, PyAny>, what: &str) -> PyResult<i64> {
    if value.is_instance_of::<PyBool>() || is_numpy_bool(value) {
        return Err(PyTypeError::new_err(format!(
            "{what} must be a whole number, not {}",
            value.repr()?
        )));
    }
    // Ints, numpy's integers and 0-d integer arrays.
    if let Ok(n) = value.extract::<i64>() {
        return Ok(n);
    }
    // An int beyond i64 names no house: the caller's range check says so.
    if value.is_instance_of::<PyInt>() {
        return Ok(if value.lt(0)? { i64::MIN } else { i64::MAX });
    }
    // Floats, numpy's floats, 0-d float arrays.
    if let Ok(x) = value.extract::<f64>() {
        return float_whole_number(x, what);
    }
    Err(PyTypeError::new_err(format!(
        "{what} must be a whole number, not {} ({})",
        value.repr()?,
        value.get_type().name()?
    )))
}

fn is_numpy_bool(value: &Bound<'_, PyAny>) -> bool {
    value
        .get_type()
        .name()
        .is_ok_and(|n| n == "bool" || n == "bool_")
}

/// A float that must be a whole number: its value, or a ValueError naming it.
pub(crate) fn float_whole_number(x: f64, what: &str) -> PyResult<i64> {
    // Floats of magnitude 2^63 and more are whole but name no house: saturate.
    if x.is_finite() && x.fract() == 0.0 {
        #[allow(clippy::cast_possible_truncation)]
        return Ok(x as i64);
    }
    Err(PyValueError::new_err(format!(
        "{what} must be a whole number, not {}",
        float_text(x)
    )))
}

/// A float as Python writes it (`1.9`, `nan`, `inf`).
fn float_text(x: f64) -> String {
    if x.is_nan() {
        "nan".into()
    } else if x.is_infinite() {
        if x > 0.0 { "inf" } else { "-inf" }.into()
    } else {
        format!("{x:?}")
    }
}

/// A seed: any whole number from 0 to 2^64 - 1, as numpy's generators take them.
pub(crate) fn seed(value: i128) -> PyResult<u64> {
    u64::try_from(value).map_err(|_| {
        PyValueError::new_err(format!(
            "seed must be a whole number from 0 to {}, not {value}",
            u64::MAX
        ))
    })
}

/// A count of at least `min` (games in a batch, megabytes of a table).
pub(crate) fn count(value: i64, min: usize, what: &str) -> PyResult<usize> {
    usize::try_from(value)
        .ok()
        .filter(|&n| n >= min)
        .ok_or_else(|| PyValueError::new_err(format!("{what} must be at least {min}, not {value}")))
}

/// A time limit in seconds: a number of 0 or more.
pub(crate) fn duration(seconds: f64, what: &str) -> PyResult<Duration> {
    Duration::try_from_secs_f64(seconds).map_err(|_| {
        PyValueError::new_err(format!(
            "{what} must be a number of seconds, 0 or more, not {}",
            float_text(seconds)
        ))
    })
}

/// Index `i` of a sequence of `len`, Python's way: -1 is the last one.
pub(crate) fn index(i: i64, len: usize) -> Option<usize> {
    let len_i = i64::try_from(len).ok()?;
    let i = if i < 0 { i + len_i } else { i };
    usize::try_from(i).ok().filter(|&i| i < len)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negative_indices_count_from_the_end() {
        assert_eq!(index(-1, 4), Some(3));
        assert_eq!(index(3, 4), Some(3));
        assert_eq!(index(4, 4), None);
        assert_eq!(index(-5, 4), None);
    }

    #[test]
    fn floats_text_as_python_writes_them() {
        assert_eq!(float_text(1.9), "1.9");
        assert_eq!(float_text(f64::NAN), "nan");
        assert_eq!(float_text(-1.0), "-1.0");
    }
}
