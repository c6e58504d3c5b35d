//! Search results as the JSON object `dateline search --json` prints and
//! the Python package returns: one shape for every caller.

use serde_json::{json, Value};

use super::SearchResults;

impl SearchResults {
    /// `{"total", "hits": [{"id", "score", "snippet", "highlights",
    /// "record"}], "facets"?: {dimension: [{"value", "count"}]},
    /// "index_behind"?}`.
    pub fn to_json(&self) -> Value {
        let hits: Vec<Value> = self
            .hits
            .iter()
            .map(|hit| {
                json!({
                    "id": hit.id,
                    "score": hit.score,
                    "snippet": hit.snippet.text,
                    "highlights": hit.snippet.highlights,
                    "record": hit.record,
                })
            })
            .collect();
        let mut out = json!({ "total": self.total, "hits": hits });
        if let Some(facets) = &self.facets {
            out["facets"] = facets
                .iter()
                .map(|(dim, values)| {
                    (
                        dim.clone(),
                        values
                            .iter()
                            .map(|(v, n)| json!({"value": v, "count": n}))
                            .collect::<Value>(),
                    )
                })
                .collect::<serde_json::Map<_, _>>()
                .into();
        }
        if self.index_behind > 0 {
            out["index_behind"] = json!(self.index_behind);
        }
        out
    }
}
