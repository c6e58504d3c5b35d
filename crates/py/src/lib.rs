//! `dateline._dateline`: the native half of the `dateline` Python package
//! (the pure-Python half in `python/dateline` turns JSON into dicts and
//! holds the docs and type stubs).
//!
//! Every parse here is `caption::parse` over the embedded gazetteer and
//! every record leaves as `CaptionRecord::write_json`'s bytes, so Python
//! sees exactly the records `dateline parse` prints. Parsing happens with
//! the GIL released.

mod archive;
mod arrow;
mod input;
mod parse;

use pyo3::prelude::*;

/// The embedded gazetteer, decoded on first use (about 0.07 s), or the
/// CLI's message when it cannot be.
fn gazetteer() -> PyResult<&'static gazetteer::Gazetteer> {
    gazetteer::Gazetteer::try_embedded().map_err(|err| {
        pyo3::exceptions::PyRuntimeError::new_err(format!("decoding the embedded gazetteer: {err}"))
    })
}

/// The error for a parsing thread that panicked: a bug, never bad input.
fn engine_panicked() -> PyErr {
    pyo3::exceptions::PyRuntimeError::new_err(
        "a parsing thread panicked (a bug in dateline; please report the input)",
    )
}

/// Threads to parse on: `threads`, or one per core.
fn thread_count(threads: Option<usize>) -> PyResult<usize> {
    match threads {
        Some(0) => Err(pyo3::exceptions::PyValueError::new_err(
            "threads must be at least 1",
        )),
        Some(n) => Ok(n),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

#[pymodule]
fn _dateline(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(parse::parse_json, m)?)?;
    m.add_function(wrap_pyfunction!(parse::segment, m)?)?;
    m.add_class::<parse::ParseMany>()?;
    m.add_function(wrap_pyfunction!(arrow::parse_arrow_array, m)?)?;
    m.add_function(wrap_pyfunction!(arrow::record_schema, m)?)?;
    m.add_class::<archive::Archive>()?;
    m.add("ArchiveError", m.py().get_type::<archive::ArchiveError>())?;
    Ok(())
}
