//! `parse_arrow`'s native half: a string array in (read in place through
//! the Arrow C data interface), one record batch of record columns out
//! (handed to pyarrow the same way, without copying).

use arrow_array::{Array, RecordBatch};
use arrow_pyarrow::{FromPyArrow, ToPyArrow};
use pyo3::exceptions::{PyRuntimeError, PyTypeError};
use pyo3::prelude::*;

use columnar::{Options, RecordColumns};

/// A string column of any of Arrow's string layouts, read in place.
enum Strings {
    Utf8(arrow_array::StringArray),
    LargeUtf8(arrow_array::LargeStringArray),
    View(arrow_array::StringViewArray),
}

impl Strings {
    fn of(array: arrow_array::ArrayRef) -> PyResult<Strings> {
        use arrow_array::cast::AsArray;
        let kind = array.data_type().clone();
        if let Some(a) = array.as_string_opt::<i32>() {
            return Ok(Strings::Utf8(a.clone()));
        }
        if let Some(a) = array.as_string_opt::<i64>() {
            return Ok(Strings::LargeUtf8(a.clone()));
        }
        if let Some(a) = array.as_string_view_opt() {
            return Ok(Strings::View(a.clone()));
        }
        Err(PyTypeError::new_err(format!(
            "the captions must be an Arrow string column, not {kind}"
        )))
    }

    fn len(&self) -> usize {
        match self {
            Strings::Utf8(a) => a.len(),
            Strings::LargeUtf8(a) => a.len(),
            Strings::View(a) => a.len(),
        }
    }

    fn get(&self, i: usize) -> Option<&str> {
        match self {
            Strings::Utf8(a) => a.is_valid(i).then(|| a.value(i)),
            Strings::LargeUtf8(a) => a.is_valid(i).then(|| a.value(i)),
            Strings::View(a) => a.is_valid(i).then(|| a.value(i)),
        }
    }
}

/// Parses the rows `range` into one batch.
fn parse_rows(
    strings: &Strings,
    range: std::ops::Range<usize>,
    gazetteer: &gazetteer::Gazetteer,
) -> Result<RecordBatch, columnar::Error> {
    let mut columns = RecordColumns::new(Options::default());
    for i in range {
        match strings.get(i) {
            Some(text) => columns.push(&caption::parse(text, gazetteer), None),
            None => columns.push_null(),
        }
    }
    columns.finish()
}

/// Parses every value of a string array (anything with
/// `__arrow_c_array__`) into a list of record batches, in row order: row
/// `i` is the record of value `i`, all nulls for a null value.
#[pyfunction]
#[pyo3(signature = (array, threads=None))]
pub fn parse_arrow_array<'py>(
    py: Python<'py>,
    array: &Bound<'py, PyAny>,
    threads: Option<usize>,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let data = arrow_data::ArrayData::from_pyarrow_bound(array)?;
    let strings = Strings::of(arrow_array::make_array(data))?;
    let threads = crate::thread_count(threads)?;
    let gazetteer = crate::gazetteer()?;
    let rows = strings.len();
    let per_thread = rows.div_ceil(threads).max(1);
    let batches = py.detach(|| {
        std::thread::scope(|scope| {
            let strings = &strings;
            let workers: Vec<_> = (0..rows)
                .step_by(per_thread)
                .map(|start| {
                    let range = start..(start + per_thread).min(rows);
                    scope.spawn(move || parse_rows(strings, range, gazetteer))
                })
                .collect();
            workers
                .into_iter()
                .map(|w| w.join().map_err(|_| crate::engine_panicked()))
                .collect::<PyResult<Vec<_>>>()
        })
    })?;
    batches
        .into_iter()
        .map(|batch| {
            batch
                .map_err(|err| PyRuntimeError::new_err(err.to_string()))?
                .to_pyarrow(py)
        })
        .collect()
}

/// The pyarrow schema of `parse_arrow`'s tables.
#[pyfunction]
pub fn record_schema(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    columnar::schema(Options::default()).as_ref().to_pyarrow(py)
}
