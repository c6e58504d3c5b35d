//! `parse`, `parse_many` and `segment`: captions to records (as JSON text,
//! which the Python half loads) and text to caption spans.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyIterator, PyList};

use crate::input::{text_of, Text};

/// Items pulled from the iterable per worker before parsing: enough to
/// amortize releasing the GIL and starting threads, few enough to keep the
/// first records coming quickly.
const ITEMS_PER_WORKER: usize = 256;

/// Parses one caption and returns its record as JSON.
#[pyfunction]
pub fn parse_json(py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<String> {
    let text = text_of(text, "text")?;
    let gazetteer = crate::gazetteer()?;
    Ok(py.detach(|| render(text.as_str(), gazetteer)))
}

/// One caption's record as JSON text.
fn render(text: &str, gazetteer: &gazetteer::Gazetteer) -> String {
    let mut out = Vec::with_capacity(text.len() * 6);
    caption::parse(text, gazetteer).write_json(&mut out);
    // write_json writes only valid UTF-8 (JSON of Rust strings).
    String::from_utf8(out).unwrap_or_default()
}

/// Parses `texts` on `threads` threads, in order; `None` if a thread
/// panicked (a bug in the engine, reported rather than hidden).
pub fn render_all(
    texts: &[Text],
    threads: usize,
    gazetteer: &gazetteer::Gazetteer,
) -> Option<Vec<String>> {
    let per_thread = texts.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        let workers: Vec<_> = texts
            .chunks(per_thread)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|t| render(t.as_str(), gazetteer))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        let mut out = Vec::with_capacity(texts.len());
        for worker in workers {
            out.extend(worker.join().ok()?);
        }
        Some(out)
    })
}

/// An iterator of JSON records over an iterable of captions: pulls a
/// chunk, parses it on the threads with the GIL released, hands out its
/// records in order, then pulls the next.
#[pyclass(module = "dateline._dateline")]
pub struct ParseMany {
    items: Py<PyIterator>,
    threads: usize,
    /// Items read so far, for error messages.
    seen: usize,
    ready: std::collections::VecDeque<String>,
    done: bool,
    /// A bad item's error, raised once the records before it are out.
    failed: Option<PyErr>,
}

#[pymethods]
impl ParseMany {
    #[new]
    #[pyo3(signature = (texts, threads=None))]
    fn new(texts: &Bound<'_, PyAny>, threads: Option<usize>) -> PyResult<ParseMany> {
        Ok(ParseMany {
            items: texts.try_iter()?.unbind(),
            threads: crate::thread_count(threads)?,
            seen: 0,
            ready: Default::default(),
            done: false,
            failed: None,
        })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<String>> {
        if self.ready.is_empty() && !self.done {
            let mut chunk = Vec::new();
            let mut items = self.items.bind(py).clone();
            while chunk.len() < self.threads * ITEMS_PER_WORKER {
                let text = match items.next() {
                    None => Err(None),
                    Some(item) => item
                        .and_then(|item| text_of(&item, &format!("item {}", self.seen)))
                        .map_err(Some),
                };
                match text {
                    Ok(text) => chunk.push(text),
                    Err(failed) => {
                        self.failed = failed;
                        self.done = true;
                        break;
                    }
                }
                self.seen += 1;
            }
            let gazetteer = crate::gazetteer()?;
            let threads = self.threads;
            let rendered = py.detach(|| render_all(&chunk, threads, gazetteer));
            self.ready
                .extend(rendered.ok_or_else(crate::engine_panicked)?);
        }
        match self.ready.pop_front() {
            Some(record) => Ok(Some(record)),
            None => self.failed.take().map_or(Ok(None), Err),
        }
    }
}

/// Splits text into captions as `dateline parse` does for a paragraph:
/// page chrome dropped, a credit line joined to its caption.
#[pyfunction]
pub fn segment<'py>(py: Python<'py>, text: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
    let text = text_of(text, "text")?;
    let found = py.detach(|| caption::segment(text.as_str()));
    let out = PyList::empty(py);
    for caption in found {
        let item = PyDict::new(py);
        item.set_item("text", caption.span.of(text.as_str()))?;
        item.set_item("start", caption.span.start)?;
        item.set_item("end", caption.span.end)?;
        item.set_item("truncated", caption.truncated)?;
        out.append(item)?;
    }
    Ok(out)
}
