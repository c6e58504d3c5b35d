//! Between caption records and photo metadata (IPTC-IIM / XMP): what a JPEG
//! states becomes [`caption::Stated`], and a record becomes the fields
//! `dateline tag` and XMP sidecars write.
//!
//! Mapping decisions:
//! - Credit Line is the credit as the caption writes it (`credit.raw`), the
//!   way wire photos carry `REUTERS/Jane Roe` there.
//! - Source is the third party that supplied the image when there is one,
//!   else the first agency credited: IPTC's Source names the original owner
//!   of the copyright, which for wire photos is the agency. Reading it back,
//!   an agency in Source is an agency again (see `caption::apply_stated`).
//! - Persons shown are names only; ages stay in the caption.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::Context;
use caption::{CaptionRecord, Stated};
use photometa::PhotoMetadata;

use crate::input::{Form, Piece};

/// A photo's caption with what its metadata states, as one piece to
/// parse; `None` when it has no caption. `dateline parse` and
/// `dateline tag` both read a JPEG through this.
pub fn caption_piece(meta: &PhotoMetadata, image_url: Option<String>) -> Option<Piece> {
    let caption = meta.description.clone().filter(|d| !d.trim().is_empty())?;
    Some(Piece {
        offset: 0,
        text: caption,
        form: Form::Caption {
            image_url,
            stated: Box::new(stated_of(meta)),
        },
    })
}

/// What a photo's metadata states, for [`caption::apply_stated`].
pub fn stated_of(meta: &PhotoMetadata) -> Stated {
    Stated {
        creators: meta.creators.clone(),
        credit_line: meta.credit_line.clone(),
        source: meta.source.clone(),
        date_created: meta.date_created.clone(),
        sublocation: meta.sublocation.clone(),
        city: meta.city.clone(),
        province: meta.province_state.clone(),
        country: meta.country.clone(),
        country_code: meta.country_code.clone(),
        coordinates: meta.gps,
    }
}

/// The IPTC fields of a record, to write into an image or a sidecar.
pub fn metadata_of(record: &CaptionRecord) -> PhotoMetadata {
    let location = record.location.as_ref();
    let field =
        |get: fn(&caption::Location) -> &Option<String>| location.and_then(|l| get(l).clone());
    let coordinates = location.and_then(|l| l.latitude.zip(l.longitude));
    PhotoMetadata {
        description: Some(record.text.clone()).filter(|t| !t.is_empty()),
        creators: record.credit.creators.clone(),
        credit_line: record.credit.raw.clone(),
        source: record
            .credit
            .source
            .clone()
            .or_else(|| record.credit.agencies.first().cloned()),
        date_created: record.date_created.map(|d| d.to_string()),
        sublocation: field(|l| &l.sublocation),
        city: field(|l| &l.city),
        province_state: field(|l| &l.province),
        country: field(|l| &l.country),
        country_code: field(|l| &l.country_code),
        persons_shown: record.persons.iter().map(|p| p.name.clone()).collect(),
        organisations: record.organizations.clone(),
        gps: coordinates,
    }
}

/// The file names of XMP sidecars, one per record: named after the
/// record's image (`IMAGE.xmp`, the convention photo tools read) or, with
/// no local image, its id (`ID.xmp`). Two records whose images share a
/// name get `IMAGE-ID.xmp` for the second, so no sidecar overwrites another
/// record's (in a directory or in an export's tar archive alike).
#[derive(Default)]
pub struct SidecarNames {
    /// File stem taken → the record id that took it.
    taken: HashMap<String, String>,
}

impl SidecarNames {
    /// The file name of the sidecar of record `id` whose image is
    /// `image_url`.
    pub fn name(&mut self, id: &str, image_url: Option<&str>) -> String {
        let image_stem = image_url
            .filter(|url| !url.contains("://"))
            .and_then(|path| Path::new(path).file_stem())
            .and_then(|stem| stem.to_str());
        let mut stem = image_stem.unwrap_or(id).to_string();
        match self.taken.get(&stem) {
            Some(owner) if owner != id => stem = format!("{stem}-{id}"),
            _ => {}
        }
        self.taken.insert(stem.clone(), id.to_string());
        format!("{stem}.xmp")
    }
}

/// Where XMP sidecars go: one directory, files named by [`SidecarNames`].
pub struct SidecarDir {
    dir: PathBuf,
    names: SidecarNames,
}

impl SidecarDir {
    /// Creates the directory when missing.
    pub fn create(dir: &Path) -> anyhow::Result<SidecarDir> {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("creating the output directory {}", dir.display()))?;
        Ok(SidecarDir {
            dir: dir.to_path_buf(),
            names: SidecarNames::default(),
        })
    }

    /// Writes the sidecar of the record `id` whose image is `image_url`
    /// (atomically: a reader never sees half a file).
    pub fn write(
        &mut self,
        id: &str,
        image_url: Option<&str>,
        sidecar: &[u8],
    ) -> anyhow::Result<()> {
        let path = self.dir.join(self.names.name(id, image_url));
        photometa::write_atomically(&path, sidecar)
            .with_context(|| format!("writing {}", path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_round_trips_through_stated_fields() {
        let gazetteer = gazetteer::Gazetteer::embedded();
        let record = caption::parse(
            "Hana, 9, walks past a market in Aleppo, Syria March 3, 2016. REUTERS/Jane Roe",
            gazetteer,
        );
        let meta = metadata_of(&record);
        assert_eq!(meta.credit_line.as_deref(), Some("REUTERS/Jane Roe"));
        assert_eq!(meta.source.as_deref(), Some("Reuters"));
        assert_eq!(meta.city.as_deref(), Some("Aleppo"));
        assert_eq!(meta.country_code.as_deref(), Some("SY"));
        assert_eq!(meta.date_created.as_deref(), Some("2016-03-03"));
        assert_eq!(meta.persons_shown, ["Hana"]);
        assert!(meta.gps.is_some());
        // Reading the written fields back beside the same caption agrees.
        let mut again = record.clone();
        caption::apply_stated(&mut again, &stated_of(&meta), gazetteer);
        assert!(again.conflicts.is_empty(), "{:?}", again.conflicts);
        assert_eq!(again.credit, record.credit);
        assert_eq!(again.location, record.location);
    }
}
