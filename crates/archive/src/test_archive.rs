//! Test archives: captions ingested one document each (this crate's tests,
//! and other crates' with the `test-support` feature).

use crate::{Archive, Mode, NewOccurrence};

/// A new archive in `dir` holding `texts`, one document each, indexed;
/// the record ids in order (a text given twice is one document, and one id).
pub fn with_captions(dir: &std::path::Path, texts: &[&str]) -> (Archive, Vec<String>) {
    let gazetteer = gazetteer::Gazetteer::embedded();
    let mut archive = Archive::open(dir, Mode::Write).expect("open");
    let mut ids = Vec::new();
    for (i, text) in texts.iter().enumerate() {
        let Some(mut doc) = archive
            .begin_document(
                &format!("d{i}.txt"),
                text.len() as u64,
                &crate::DocumentHashes::of(text.as_bytes()),
            )
            .expect("begin")
        else {
            continue;
        };
        let record = caption::parse(text, gazetteer);
        ids.push(record.id.clone());
        doc.add(NewOccurrence {
            offset: 0,
            exact_text: text.to_string(),
            record,
        })
        .expect("add");
        doc.commit().expect("commit");
    }
    archive.sync_index().expect("sync");
    (archive, ids)
}
