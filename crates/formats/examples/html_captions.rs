//! Prints the captions the HTML reader finds in a page, one per line:
//! `offset<TAB>origin<TAB>image URL<TAB>text`, then the warnings.
//!
//! `cargo run -p formats --example html_captions -- page.html`

use std::fs::File;
use std::io::BufReader;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: html_captions PAGE.html")?;
    let found = formats::html::read_html(BufReader::new(File::open(path)?))?;
    for caption in &found.captions {
        println!(
            "{}\t{:?}\t{}\t{}",
            caption.offset,
            caption.origin,
            caption.image_url.as_deref().unwrap_or("-"),
            caption.text
        );
    }
    for warning in &found.warnings {
        eprintln!("warning: {warning:?}");
    }
    eprintln!("{} captions", found.captions.len());
    Ok(())
}
