//! Readers of caption-bearing inputs (plain text now; HTML and JPEG later)
//! and writers of records.

pub mod text;
