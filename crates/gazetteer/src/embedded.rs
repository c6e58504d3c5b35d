//! The gazetteer built into the library, and the compact format's public face.

use crate::{compact, Error, Gazetteer};
use std::sync::OnceLock;

/// The compact file built by `cargo xtask gazetteer` (see `data/README.md`).
static EMBEDDED_DATA: &[u8] = include_bytes!("../data/gazetteer.bin");

static EMBEDDED: OnceLock<Result<Gazetteer, Error>> = OnceLock::new();

impl Gazetteer {
    /// The built-in gazetteer (GeoNames places of 500 inhabitants or more,
    /// admin1 divisions, countries), decoded on first use and shared after.
    ///
    /// # Panics
    /// Only if the data compiled into this library is damaged, which its tests
    /// rule out; [`try_embedded`](Self::try_embedded) returns that as an error.
    pub fn embedded() -> &'static Gazetteer {
        match Self::try_embedded() {
            Ok(g) => g,
            Err(e) => panic!("the embedded gazetteer data is damaged: {e}"),
        }
    }

    /// The built-in gazetteer, or why its data could not be decoded.
    pub fn try_embedded() -> Result<&'static Gazetteer, &'static Error> {
        EMBEDDED
            .get_or_init(|| compact::decode_static(EMBEDDED_DATA))
            .as_ref()
    }

    /// The compact bytes the built-in gazetteer is decoded from.
    pub fn embedded_data() -> &'static [u8] {
        EMBEDDED_DATA
    }

    /// Decodes compact data written by [`to_compact`](Self::to_compact),
    /// checking it thoroughly: damaged data is an error, never a panic.
    pub fn from_compact(bytes: &[u8]) -> Result<Gazetteer, Error> {
        compact::decode(bytes)
    }

    /// Encodes the gazetteer in the compact format (deterministic: the same
    /// gazetteer always gives the same bytes). Coordinates keep five decimals.
    pub fn to_compact(&self) -> Vec<u8> {
        compact::encode(self)
    }
}
