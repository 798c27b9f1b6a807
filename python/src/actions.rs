//! A batch's actions as Python gives them: any 1-D array-like of whole numbers, one
//! a game. Integers pass as they are; floats only when they are whole numbers (a
//! policy computed in floats), so that 1.9 is refused rather than played as house 1.

use numpy::{PyArray1, PyArrayDescrMethods, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::args::float_whole_number;

/// The houses of `actions`, one for each of `n` games, or the error naming what is
/// wrong: the shape, the kind of numbers, or (for floats) the first one that is not a
/// whole number, with its game.
pub(crate) fn actions_of(actions: &Bound<'_, PyAny>, n: usize) -> PyResult<Vec<i64>> {
    // The common case, an int64 array (`argmax(...) + 1`), without going through numpy.
    if let Ok(array) = actions.cast::<PyArray1<i64>>() {
        if array.len() == n {
            return Ok(array.readonly().as_array().to_vec());
        }
    }
    let py = actions.py();
    let numpy = py.import("numpy")?;
    let array = numpy
        .call_method1("asarray", (actions,))?
        .cast_into::<PyUntypedArray>()?;
    if array.ndim() != 1 {
        return Err(PyValueError::new_err(format!(
            "actions must be one house for each game, shape ({n},), not {:?}",
            array.shape()
        )));
    }
    if array.len() != n {
        return Err(PyValueError::new_err(format!(
            "{} actions for {n} games",
            array.len()
        )));
    }
    let as_type = |dtype: &str| numpy.call_method1("ascontiguousarray", (&array, dtype));
    match array.dtype().kind() {
        b'i' => Ok(as_type("int64")?.cast_into::<PyArray1<i64>>()?.to_vec()?),
        // Unsigned numbers beyond i64 name no house: kept out of range, not wrapped
        // round to negative ones.
        b'u' => Ok(as_type("uint64")?
            .cast_into::<PyArray1<u64>>()?
            .to_vec()?
            .into_iter()
            .map(|a| i64::try_from(a).unwrap_or(i64::MAX))
            .collect()),
        b'f' => as_type("float64")?
            .cast_into::<PyArray1<f64>>()?
            .to_vec()?
            .into_iter()
            .enumerate()
            .map(|(i, x)| float_whole_number(x, &format!("game {i}: a house")))
            .collect(),
        _ => Err(PyTypeError::new_err(format!(
            "actions must be whole numbers (houses), not an array of {}",
            array.dtype()
        ))),
    }
}
