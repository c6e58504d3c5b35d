//! Tests of the whole reader on small pages.

use super::*;

fn read(page: &str) -> HtmlCaptions {
    read_html(page.as_bytes()).expect("an HTML page")
}

fn texts(page: &str) -> Vec<String> {
    read(page).captions.into_iter().map(|c| c.text).collect()
}

#[test]
fn figcaption_wins_over_alt_and_credit_joins() {
    let page = r#"<figure class="wp-block-image">
        <img src="/up/2016/05/gaza.jpg" alt="Boys play football on the beach in Gaza">
        <figcaption>Boys play football on the beach in Gaza City, May 2, 2016.<span class="credit">Jane Roe/Reuters</span></figcaption>
      </figure>"#;
    let found = read(page);
    assert_eq!(found.captions.len(), 1);
    let caption = &found.captions[0];
    assert_eq!(
        caption.text,
        "Boys play football on the beach in Gaza City, May 2, 2016. Jane Roe/Reuters"
    );
    assert_eq!(caption.credit.as_deref(), Some("Jane Roe/Reuters"));
    assert_eq!(caption.image_url.as_deref(), Some("/up/2016/05/gaza.jpg"));
    assert_eq!(caption.origin, Origin::Figcaption);
    assert_eq!(
        caption.offset,
        page.find("<figcaption").expect("in page") as u64
    );
    assert!(found.warnings.is_empty());
}

#[test]
fn alt_text_when_no_figcaption_but_not_file_names() {
    let page = r#"<figure><img src="a.jpg" alt="A man walks past a burning car in Kyiv"></figure>
        <figure><img src="b.jpg" alt="IMG_0042.jpg"></figure>
        <figure><img src="c.jpg" alt="photo" title="Smoke rises over the port of Odesa"></figure>
        <img src="d.jpg" alt="image">"#;
    let found = read(page).captions;
    let got: Vec<_> = found
        .iter()
        .map(|c| (c.text.as_str(), c.origin, c.image_url.as_deref()))
        .collect();
    assert_eq!(
        got,
        [
            (
                "A man walks past a burning car in Kyiv",
                Origin::ImgAlt,
                Some("a.jpg")
            ),
            (
                "Smoke rises over the port of Odesa",
                Origin::ImgTitle,
                Some("c.jpg")
            ),
        ]
    );
}

#[test]
fn credit_right_after_a_figure_or_caption_joins_it() {
    let page = r#"<figure><img src="a.jpg"><figcaption>Flood water covers a road in Derna.</figcaption></figure>
        <p class="photo-credit">Photo: John Doe/AP</p>
        <p>Article text that is not a credit.</p>
        <p class="photo-credit">Orphan credit, then text</p>
        <p>More article text.</p>"#;
    let found = read(page).captions;
    assert_eq!(found.len(), 1);
    assert_eq!(
        found[0].text,
        "Flood water covers a road in Derna. Photo: John Doe/AP"
    );
}

#[test]
fn free_image_caption_and_credit_as_siblings() {
    let page = r#"<div class="slide"><img data-src="/g/1.jpg" src="data:image/gif;base64,R0lG" alt="Smoke rises after an air strike in the city">
          <div class="slide-caption">Smoke rises after an air strike on Khan Younis, Gaza, Oct. 9, 2023.</div>
          <div class="slide-credit">REUTERS/Jane Roe</div></div>
        <div class="slide"><span class="credit">AP Photo/John Doe</span><img src="/g/2.jpg">
          <p class="caption">Rescuers search the rubble in Antakya, Turkey.</p></div>"#;
    let found = read(page).captions;
    let got: Vec<_> = found
        .iter()
        .map(|c| {
            (
                c.text.as_str(),
                c.credit.as_deref(),
                c.image_url.as_deref(),
                c.origin,
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (
                "Smoke rises after an air strike on Khan Younis, Gaza, Oct. 9, 2023. REUTERS/Jane Roe",
                Some("REUTERS/Jane Roe"),
                Some("/g/1.jpg"),
                Origin::Gallery
            ),
            (
                "Rescuers search the rubble in Antakya, Turkey. AP Photo/John Doe",
                Some("AP Photo/John Doe"),
                Some("/g/2.jpg"),
                Origin::Gallery
            ),
        ]
    );
}

#[test]
fn data_attribute_slides() {
    let page = r#"<ul class="gallery">
        <li data-caption="Fans cheer in Buenos Aires, Argentina, Dec. 18, 2022." data-credit="Agustin Marcarian/Reuters" data-src="https://img.example/1.jpg"><img src="https://img.example/1-thumb.jpg" alt="thumbnail"></li>
        <li><a href="https://img.example/2.jpg" data-caption="Players celebrate with the trophy &amp; medals."><img src="t2.jpg"></a>
      </ul>"#;
    let found = read(page).captions;
    assert_eq!(found.len(), 2);
    assert_eq!(
        found[0].text,
        "Fans cheer in Buenos Aires, Argentina, Dec. 18, 2022. Agustin Marcarian/Reuters"
    );
    assert_eq!(
        found[0].image_url.as_deref(),
        Some("https://img.example/1.jpg")
    );
    assert_eq!(found[1].text, "Players celebrate with the trophy & medals.");
    assert_eq!(
        found[1].image_url.as_deref(),
        Some("https://img.example/2.jpg")
    );
}

#[test]
fn chrome_scripts_and_styles_are_ignored() {
    let page = r#"<html><head><title>Photo caption gallery of the week</title>
        <style>.caption { color: red }</style>
        <script>var caption = "<figcaption>not this</figcaption>";</script></head>
        <body><header><img src="logo.png" alt="The Daily Example news logo header"></header>
        <nav><figure><img src="n.jpg"><figcaption>Menu item caption</figcaption></figure></nav>
        <article><header><figure><img src="lead.jpg"><figcaption>Lead photo caption text.</figcaption></figure></header></article>
        <noscript><img src="lead.jpg" alt="A noscript copy of the lead image"></noscript>
        <template><figure><figcaption>Template caption</figcaption></figure></template>
        <svg><text>svg caption text here</text></svg>
        <footer><p class="caption">Footer caption</p></footer></body></html>"#;
    assert_eq!(texts(page), ["Lead photo caption text."]);
}

#[test]
fn entities_are_decoded_and_whitespace_normalized() {
    let page = "<figure><figcaption>Tom&#8217;s&nbsp;caf\u{e9} &amp; bar\n\t in  Lyon,<br>France &mdash; Jan.&#x20;5</figcaption></figure>";
    assert_eq!(
        texts(page),
        ["Tom\u{2019}s caf\u{e9} & bar in Lyon, France \u{2014} Jan. 5"]
    );
}

#[test]
fn unclosed_and_misnested_tags() {
    let page = r#"<div><figure><img src="x.jpg"><figcaption>First caption, unclosed</figure>
        <figure><figcaption>Second <b>caption</i> here</b></span></figcaption></figure></div></div></div>
        <p class="caption">Third caption<p>Article paragraph that is not a caption.
        <figure><figcaption>Last, cut off at the end of the page<img src="a.jpg" alt="x"#;
    let got = texts(page);
    assert_eq!(
        got,
        [
            "First caption, unclosed",
            "Second caption here",
            "Third caption",
            "Last, cut off at the end of the page"
        ]
    );
}

#[test]
fn json_ld_merges_with_its_figure_and_stands_alone_otherwise() {
    let page = r#"<script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle",
        "image":[{"@type":"ImageObject","contentUrl":"https://cdn.example/p/flood-1600x900.jpg",
          "caption":"Flood water covers a road in Derna, Libya.","creditText":"Reuters",
          "creator":{"@type":"Person","name":"Jane Roe"},"dateCreated":"2023-09-12",
          "contentLocation":{"@type":"Place","name":"Derna"}},
          {"@type":"ImageObject","url":"https://cdn.example/p/map.png",
          "caption":"A map of the flooded area in eastern Libya.","creditText":"Graphic: John Doe"}]}</script>
        <figure><img src="/p/flood.jpg"><figcaption>Flood water covers a road in Derna, Libya, Sept. 12, 2023.</figcaption></figure>"#;
    let found = read(page).captions;
    assert_eq!(found.len(), 2);
    let map = &found[0];
    assert_eq!(map.origin, Origin::JsonLd);
    assert_eq!(
        map.text,
        "A map of the flooded area in eastern Libya. Graphic: John Doe"
    );
    assert_eq!(
        map.image_url.as_deref(),
        Some("https://cdn.example/p/map.png")
    );
    let flood = &found[1];
    assert_eq!(flood.origin, Origin::Figcaption);
    assert_eq!(
        flood.text,
        "Flood water covers a road in Derna, Libya, Sept. 12, 2023. Reuters"
    );
    assert_eq!(flood.image_url.as_deref(), Some("/p/flood.jpg"));
    assert_eq!(flood.stated.creators, ["Jane Roe"]);
    assert_eq!(flood.stated.date_created.as_deref(), Some("2023-09-12"));
    assert_eq!(flood.stated.content_location.as_deref(), Some("Derna"));
}

#[test]
fn malformed_json_ld_is_a_warning() {
    let page = r#"<script type="application/ld+json">{"@type":"ImageObject",</script>
        <figure><figcaption>Still read after the bad script.</figcaption></figure>"#;
    let found = read(page);
    assert_eq!(texts(page), ["Still read after the bad script."]);
    assert!(matches!(
        found.warnings.as_slice(),
        [Warning::BadJsonLd { offset: 0, .. }]
    ));
}

#[test]
fn open_graph_only_on_pages_without_captions() {
    let og = r#"<meta property="og:image" content="https://img.example/og.jpg">
        <meta property="og:description" content="Firefighters battle a wildfire near Athens, Greece, July 17, 2023.">"#;
    let found = read(og).captions;
    assert_eq!(found.len(), 1);
    let summary = format!("{og}<figure><figcaption>A caption of its own.</figcaption></figure>");
    assert_eq!(texts(&summary), ["A caption of its own."]);
    assert_eq!(found[0].origin, Origin::OpenGraph);
    assert_eq!(
        found[0].image_url.as_deref(),
        Some("https://img.example/og.jpg")
    );
    let repeated = format!(
        "{}<figure><figcaption>Firefighters battle a wildfire near Athens, Greece, July 17, 2023. (Photo by Jane Roe/AP)</figcaption></figure>",
        og.replace("July 17, 2023.", "July...")
    );
    let found = read(&repeated).captions;
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].origin, Origin::Figcaption);
    assert_eq!(
        found[0].image_url.as_deref(),
        Some("https://img.example/og.jpg")
    );
}

#[test]
fn urls_resolve_against_base_and_lazy_attributes() {
    let page = r#"<head><base href="https://news.example/world/gallery/"></head>
        <figure><img src="data:image/gif;base64,R0lGODlh" data-lazy-src="../img/a.jpg"><figcaption>One caption here.</figcaption></figure>
        <figure><img srcset="/img/b-640.jpg 640w, /img/b-1280.jpg 1280w"><figcaption>Two caption here.</figcaption></figure>"#;
    let urls: Vec<_> = read(page)
        .captions
        .into_iter()
        .map(|c| c.image_url.unwrap_or_default())
        .collect();
    assert_eq!(
        urls,
        [
            "https://news.example/world/img/a.jpg",
            "https://news.example/img/b-640.jpg"
        ]
    );
}

#[test]
fn tiny_images_and_quote_figures_are_not_pictures() {
    let page = r#"<img src="px.gif" width="1" height="1" alt="tracking pixel for the page view">
        <figure><blockquote>We will rebuild.</blockquote><figcaption>A minister, quoted</figcaption></figure>"#;
    assert!(texts(page).is_empty());
}

#[test]
fn offsets_point_at_start_tags() {
    let page = "<p>x</p><figure><figcaption a=\"1<2\">One.</figcaption></figure>\n<img alt=\"A descriptive alternative text here\" src=i.jpg>";
    let found = read(page).captions;
    assert_eq!(
        found[0].offset,
        page.find("<figcaption").expect("in page") as u64
    );
    assert_eq!(found[1].offset, page.find("<img").expect("in page") as u64);
}

#[test]
fn bad_bytes() {
    match read_html(&b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"[..]) {
        Err(Error::NotText { looks_like }) => assert_eq!(looks_like, "a PNG image"),
        other => panic!("expected refusal, got {other:?}"),
    }
    let found = read_html(&b"<figure><figcaption>Caf\xE9 in Par\xFFis.</figcaption></figure>"[..])
        .expect("read");
    assert_eq!(found.captions[0].text, "Caf\u{FFFD} in Par\u{FFFD}is.");
    assert_eq!(
        found.warnings,
        [Warning::InvalidUtf8 {
            offset: 23,
            count: 2
        }]
    );
    assert_eq!(read_html(&b""[..]).expect("empty").captions, []);
    assert_eq!(
        read("<html><body><p>No pictures here.</p></body></html>").captions,
        []
    );
}

#[test]
fn deep_nesting_reads_flat_and_keeps_what_is_around() {
    let depth = 100_000;
    let page = format!(
        "<figure><figcaption>Before the nest.</figcaption></figure>{}<p>deep</p>{}<figure><figcaption>After the nest.</figcaption></figure>",
        "<div>".repeat(depth),
        "</div>".repeat(depth)
    );
    let found = read(&page);
    assert_eq!(
        found
            .captions
            .iter()
            .map(|c| c.text.as_str())
            .collect::<Vec<_>>(),
        ["Before the nest.", "After the nest."]
    );
    assert!(matches!(found.warnings[..], [Warning::DeepNesting { .. }]));
    // Unclosed all the way down: still no recursion and no panic.
    let open = "<span><figure><figcaption>x".repeat(depth);
    let _ = read(&open);
}

#[test]
fn oversize_caption_is_cut() {
    let page = format!(
        "<figure><figcaption>{}</figcaption></figure>",
        "word ".repeat(MAX_CAPTION_BYTES)
    );
    let found = read(&page);
    assert!(found.captions[0].text.len() <= MAX_CAPTION_BYTES);
    assert!(matches!(
        found.warnings[..],
        [Warning::OversizeCaption { .. }]
    ));
}

/// A reader that hands out one byte at a time.
struct Trickle<'a>(&'a [u8]);

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match (self.0.split_first(), buf.first_mut()) {
            (Some((&byte, rest)), Some(slot)) => {
                *slot = byte;
                self.0 = rest;
                Ok(1)
            }
            _ => Ok(0),
        }
    }
}

#[test]
fn reading_in_tiny_pieces_changes_nothing() {
    let page = format!(
        "{}<figure><img src=\"a.jpg\"><figcaption>Caf\u{e9} &amp; <b>bar</b>.</figcaption></figure>{}",
        "<p>filler \u{2019} text</p>".repeat(10_000),
        "x".repeat(200_000)
    );
    let whole = read(&page);
    let trickled = read_html(Trickle(page.as_bytes())).expect("read");
    assert_eq!(whole, trickled);
    assert_eq!(whole.captions[0].text, "Caf\u{e9} & bar.");
}

#[test]
fn declared_windows_1252_is_decoded_other_legacy_encodings_warned() {
    let page = b"<html><head><meta charset=\"iso-8859-1\"></head><body>\
        <figure><figcaption>Caf\xE9 owners in N\xEEmes \x96 France.</figcaption></figure>\
        <figure><figcaption>Already UTF-8: Z\xC3\xBCrich.</figcaption></figure>";
    let found = read_html(&page[..]).expect("read");
    let texts: Vec<_> = found.captions.iter().map(|c| c.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "Caf\u{e9} owners in N\u{ee}mes \u{2013} France.",
            "Already UTF-8: Z\u{fc}rich."
        ]
    );
    assert!(found.warnings.is_empty());

    let page = b"<meta charset=windows-1251><figure><figcaption>\xCC\xEE\xF1\xEA\xE2\xE0</figcaption></figure>";
    let found = read_html(&page[..]).expect("read");
    assert!(matches!(
        &found.warnings[..],
        [Warning::UnsupportedEncoding { label }, Warning::InvalidUtf8 { .. }] if label == "windows-1251"
    ));
}

#[test]
fn credit_only_captions_and_credits_written_first() {
    let page = r#"<figure><img src="a.jpg" alt="Crowds fill the square in Valencia for the festival">
          <figcaption><span class="credit">EPA/Ana Ruiz</span></figcaption></figure>
        <figure><img src="b.jpg"><figcaption><cite>Reuters</cite> Fishing boats moored in Essaouira, Morocco.</figcaption></figure>"#;
    let found = read(page).captions;
    let got: Vec<_> = found
        .iter()
        .map(|c| (c.text.as_str(), c.origin, c.credit.as_deref()))
        .collect();
    assert_eq!(
        got,
        [
            (
                "Crowds fill the square in Valencia for the festival EPA/Ana Ruiz",
                Origin::ImgAlt,
                Some("EPA/Ana Ruiz")
            ),
            (
                "Fishing boats moored in Essaouira, Morocco. Reuters",
                Origin::Figcaption,
                Some("Reuters")
            ),
        ]
    );
}

#[test]
fn a_thumbnail_teaser_and_its_full_figure_are_one_picture() {
    // A strip of thumbnails (alt: the caption without its credit, or cut
    // short), then the figures in full; a second picture with the same
    // opening sentence but more text stays its own.
    let page = r#"<ul class="thumbs">
        <li><img src="/t/harbour-s.jpg" alt="Fishing boats wait for the storm to pass in the harbour of Sfax, Tunisia, Jan. 12, 2024."></li>
        <li><img src="/t/market-s.jpg" alt="Traders set out their stalls before dawn at the central..."></li>
      </ul>
      <figure><img src="/f/harbour.jpg"><figcaption>Fishing boats wait for the storm to pass in the harbour of Sfax, Tunisia, Jan. 12, 2024. <span class="credit">REUTERS/Amel Ben Salah</span></figcaption></figure>
      <figure><img src="/f/market.jpg"><figcaption>Traders set out their stalls before dawn at the central market of Sfax, Tunisia, Jan. 13, 2024. REUTERS/Amel Ben Salah</figcaption></figure>
      <figure><img src="/f/harbour2.jpg"><figcaption>Fishing boats wait for the storm to pass in the harbour of Sfax, Tunisia, Jan. 12, 2024. A crew checks its moorings. REUTERS/Amel Ben Salah</figcaption></figure>"#;
    let found = read(page).captions;
    let got: Vec<(&str, Option<&str>)> = found
        .iter()
        .map(|c| (c.text.as_str(), c.image_url.as_deref()))
        .collect();
    assert_eq!(
        got,
        [
            (
                "Fishing boats wait for the storm to pass in the harbour of Sfax, Tunisia, Jan. 12, 2024. REUTERS/Amel Ben Salah",
                Some("/f/harbour.jpg")
            ),
            (
                "Traders set out their stalls before dawn at the central market of Sfax, Tunisia, Jan. 13, 2024. REUTERS/Amel Ben Salah",
                Some("/f/market.jpg")
            ),
            (
                "Fishing boats wait for the storm to pass in the harbour of Sfax, Tunisia, Jan. 12, 2024. A crew checks its moorings. REUTERS/Amel Ben Salah",
                Some("/f/harbour2.jpg")
            ),
        ]
    );
}

#[test]
fn two_pictures_with_one_caption_stay_two() {
    let caption =
        "Supporters wave flags at a rally in Accra, Ghana, Dec. 5, 2024. REUTERS/Kofi Mensah";
    let page = format!(
        r#"<figure><img src="/a.jpg"><figcaption>{caption}</figcaption></figure>
           <figure><img src="/b.jpg"><figcaption>{caption}</figcaption></figure>"#
    );
    assert_eq!(texts(&page), [caption, caption]);
}

#[test]
fn json_ld_and_the_visible_caption_of_one_picture_are_one() {
    // The JSON-LD caption lacks the credit and its image is another size;
    // the visible one is cut short on a second picture, whole in JSON-LD.
    let page = r#"<script type="application/ld+json">[
        {"@type":"ImageObject","contentUrl":"https://cdn.example/img/1200/quay.jpg",
         "caption":"Dockers unload grain at the port of Constanta, Romania, March 4, 2024.",
         "creator":"Ioana Pop","contentLocation":{"@type":"Place","address":{"addressLocality":"Constanta","addressCountry":"RO"}}},
        {"@type":"ImageObject","contentUrl":"https://cdn.example/img/1200/silo.jpg",
         "caption":"A worker climbs a grain silo at the port of Constanta, Romania, March 4, 2024. Ioana Pop/AFP"}]</script>
      <figure><img src="/s/quay-640.webp"><figcaption>Dockers unload grain at the port of Constanta, Romania, March 4, 2024. <cite>Ioana Pop/AFP</cite></figcaption></figure>
      <figure><img src="/s/silo-640.webp"><figcaption>A worker climbs a grain silo at the port of Constanta...</figcaption></figure>"#;
    let found = read(page).captions;
    assert_eq!(found.len(), 2, "{found:#?}");
    assert_eq!(
        found[0].text,
        "Dockers unload grain at the port of Constanta, Romania, March 4, 2024. Ioana Pop/AFP"
    );
    assert_eq!(found[0].stated.creators, ["Ioana Pop"]);
    assert_eq!(
        found[0].stated.address_locality.as_deref(),
        Some("Constanta")
    );
    assert_eq!(
        found[1].text,
        "A worker climbs a grain silo at the port of Constanta, Romania, March 4, 2024. Ioana Pop/AFP"
    );
    assert_eq!(found[1].image_url.as_deref(), Some("/s/silo-640.webp"));
}
