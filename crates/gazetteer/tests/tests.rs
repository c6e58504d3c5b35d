//! Integration tests of the gazetteer crate: the embedded data and GeoNames dump loading.

mod embedded;
mod geonames_dir;
