//! Test archives: captions ingested one document each (tests only).

use crate::{Archive, Mode, NewOccurrence};

/// A new archive in `dir` holding `texts`, one document each, indexed;
/// the record ids in order.
pub(crate) fn with_captions(dir: &std::path::Path, texts: &[&str]) -> (Archive, Vec<String>) {
    let gazetteer = gazetteer::Gazetteer::embedded();
    let mut archive = Archive::open(dir, Mode::Write).expect("open");
    let mut ids = Vec::new();
    for (i, text) in texts.iter().enumerate() {
        let mut doc = archive
            .begin_document(
                &format!("d{i}.txt"),
                text.len() as u64,
                &crate::content_hash(text.as_bytes()),
            )
            .expect("begin")
            .expect("new");
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
