//! Throughput of the HTML reader on a generated gallery page (figures,
//! slides, article text, scripts), beside two floors over the same bytes:
//! html5ever's tokenizer alone with a sink that does nothing, and a plain
//! byte scan for `<`.

use criterion::{Criterion, Throughput};
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{
    states::RawKind, BufferQueue, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer,
    TokenizerOpts,
};

/// Counts tokens and switches to raw text for scripts and styles, as the
/// reader's sink does; nothing else.
struct NullSink(std::cell::Cell<usize>);

impl TokenSink for NullSink {
    type Handle = ();
    fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
        self.0.set(self.0.get() + 1);
        match token {
            Token::TagToken(tag)
                if tag.kind == TagKind::StartTag && matches!(&*tag.name, "script" | "style") =>
            {
                TokenSinkResult::RawData(RawKind::ScriptData)
            }
            _ => TokenSinkResult::Continue,
        }
    }
}

fn tokenize_only(page: &str) -> usize {
    let tokenizer = Tokenizer::new(NullSink(std::cell::Cell::new(0)), TokenizerOpts::default());
    let queue = BufferQueue::default();
    queue.push_back(StrTendril::from_slice(page));
    let _ = tokenizer.feed(&queue);
    tokenizer.end();
    tokenizer.sink.0.get()
}

/// About `bytes` of a news gallery page.
fn page(bytes: usize) -> String {
    let mut page = String::from(
        "<!doctype html><html><head><meta charset=utf-8><title>Gallery</title>\
         <meta property=\"og:description\" content=\"The week in pictures.\">\
         <style>.caption{font-size:12px}</style></head><body><nav><a href=/>Home</a></nav><main>",
    );
    let mut i = 0;
    while page.len() < bytes {
        i += 1;
        page.push_str(&format!(
            "<figure class=\"wp-block-image\"><img src=\"/up/2024/05/p{i}-1024x683.jpg\" alt=\"\" \
             srcset=\"/up/p{i}-640.jpg 640w\"><figcaption>Residents walk past damaged buildings in \
             Kharkiv, Ukraine, May {d}, 2024. <span class=\"credit\">Jane Roe/Reuters</span>\
             </figcaption></figure>\n<p>Article paragraph {i} with <a href=\"/x\">a link</a>, \
             <em>emphasis</em> &amp; an entity &#8217; between the pictures.</p>\n\
             <div class=\"slide\" data-index=\"{i}\"><img data-src=\"/g/{i}.jpg\" src=\"data:image/gif;base64,R0lGOD\">\
             <div class=\"slide-caption\">Smoke rises over Khan Younis, Gaza, Oct. {d}, 2023.</div>\
             <div class=\"slide-credit\">AP Photo/John Doe</div></div>\n\
             <script>window.dataLayer.push({{\"slide\": {i}}});</script>\n",
            d = i % 28 + 1
        ));
    }
    page.push_str("</main></body></html>");
    page
}

fn bench(c: &mut Criterion) {
    let page = page(8 << 20);
    let mut group = c.benchmark_group("html");
    group.throughput(Throughput::Bytes(page.len() as u64));
    group.sample_size(10);
    group.bench_function("read_html", |b| {
        b.iter(|| formats::html::read_html(page.as_bytes()).map(|found| found.captions.len()))
    });
    group.bench_function("tokenizer_only_baseline", |b| {
        b.iter(|| tokenize_only(&page))
    });
    group.bench_function("memchr_lt_baseline", |b| {
        b.iter(|| memchr::memchr_iter(b'<', page.as_bytes()).count())
    });
    group.finish();
}

/// Runs the group; `cargo bench -p formats --bench html`.
fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    bench(&mut criterion);
    criterion.final_summary();
}
