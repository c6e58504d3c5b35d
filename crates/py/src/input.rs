//! Python values to caption text: `str` as it is, `bytes` decoded as UTF-8
//! with bad sequences replaced and a warning worded as the CLI words it.

use pyo3::exceptions::{PyTypeError, PyUnicodeWarning};
use pyo3::prelude::*;
use pyo3::pybacked::{PyBackedBytes, PyBackedStr};
use pyo3::types::PyString;

/// A caption's text, held without copying a `str` where Python allows.
pub enum Text {
    /// A `str`.
    Str(PyBackedStr),
    /// `bytes` that were valid UTF-8.
    Bytes(PyBackedBytes),
    /// `bytes` that were not, decoded with U+FFFD replacements.
    Decoded(String),
}

impl Text {
    /// The text.
    pub fn as_str(&self) -> &str {
        match self {
            Text::Str(s) => s,
            // Checked valid when made.
            Text::Bytes(b) => std::str::from_utf8(b).unwrap_or_default(),
            Text::Decoded(s) => s,
        }
    }
}

/// Reads `value` as caption text; `what` names it in errors and warnings
/// (`"text"`, `"item 3"`).
pub fn text_of(value: &Bound<'_, PyAny>, what: &str) -> PyResult<Text> {
    if value.is_instance_of::<PyString>() {
        // A `str` with lone surrogates has no UTF-8 form: Python's own
        // UnicodeEncodeError says so.
        return Ok(Text::Str(value.extract::<PyBackedStr>()?));
    }
    let Ok(bytes) = value.extract::<PyBackedBytes>() else {
        let kind = value
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_else(|_| "?".into());
        return Err(PyTypeError::new_err(format!(
            "{what} must be str or bytes, not {kind}"
        )));
    };
    if std::str::from_utf8(&bytes).is_ok() {
        return Ok(Text::Bytes(bytes));
    }
    let mut offset = None;
    let mut count = 0;
    let mut at = 0;
    for chunk in bytes.utf8_chunks() {
        at += chunk.valid().len();
        if !chunk.invalid().is_empty() {
            offset.get_or_insert(at as u64);
            count += 1;
        }
        at += chunk.invalid().len();
    }
    let warning = formats::text::Warning::InvalidUtf8 {
        offset: offset.unwrap_or(0),
        count,
    };
    let message = std::ffi::CString::new(format!("{what}: {warning}")).unwrap_or_default();
    let py = value.py();
    PyErr::warn(py, py.get_type::<PyUnicodeWarning>().as_any(), &message, 1)?;
    Ok(Text::Decoded(String::from_utf8_lossy(&bytes).into_owned()))
}
