//! The pages in a real browser: Debian's headless Chromium driven through
//! chromedriver (WebDriver) with fantoccini. Skipped with a message where
//! neither is installed, except under `CI=true` (`.ci/run` installs them).
//! Screenshots go to `screenshots/` in the target directory
//! (`target/screenshots/{search,record,review,map-admin1}.png`, and for the hostile
//! and right-to-left captions `record-hostile`, `record-arabic` and
//! `review-hostile`).

use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use fantoccini::actions::{InputSource, MouseActions, PointerAction, MOUSE_BUTTON_LEFT};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::json;

#[path = "support/fixture.rs"]
mod fixture;

use fixture::{Fixture, TOKEN};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// How long a page may take to settle.
const PATIENCE: Duration = Duration::from_secs(20);

/// chromedriver on a free loopback port, killed when dropped.
struct Driver {
    child: Child,
    port: u16,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

fn browser_present() -> bool {
    let present =
        std::path::Path::new(CHROMIUM).exists() && std::path::Path::new(CHROMEDRIVER).exists();
    if !present {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true but {CHROMIUM} or {CHROMEDRIVER} is missing (.ci/run installs chromium and chromium-driver)"
        );
        eprintln!("skipping the browser tests: {CHROMIUM} and {CHROMEDRIVER} are not installed (apt-get install chromium chromium-driver)");
    }
    present
}

async fn start_driver() -> Driver {
    let port = free_port();
    let child = Command::new(CHROMEDRIVER)
        .arg(format!("--port={port}"))
        .arg("--allowed-ips=127.0.0.1")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    // Ready when it accepts connections (polled, each try bounded).
    let deadline = tokio::time::Instant::now() + PATIENCE;
    while tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .is_err()
    {
        assert!(
            tokio::time::Instant::now() < deadline,
            "chromedriver did not start"
        );
        tokio::task::yield_now().await;
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    Driver { child, port }
}

async fn browser(driver: &Driver, profile: &std::path::Path) -> Client {
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": CHROMIUM,
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1400,1000",
                format!("--user-data-dir={}", profile.display()),
            ],
        }),
    );
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{}", driver.port))
        .await
        .expect("a browser session")
}

async fn start_server(f: &Fixture) -> (SocketAddr, tokio::sync::oneshot::Sender<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(server::serve(listener, f.state(true), async {
        let _ = stopped.await;
    }));
    (addr, stop)
}

/// Waits until the page's script says it has drawn (`data-ready`), after
/// clearing the mark so the next draw is waited for.
async fn settled(c: &Client) {
    c.wait()
        .at_most(PATIENCE)
        .for_element(Locator::Css("body[data-ready='1']"))
        .await
        .expect("the page settles");
}

async fn unsettle(c: &Client) {
    c.execute("document.body.removeAttribute('data-ready')", vec![])
        .await
        .expect("script");
}

async fn shot(c: &Client, name: &str) {
    // CARGO_TARGET_TMPDIR is `<target>/tmp`: beside it, a stable place.
    let tmp = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let dir = tmp.parent().unwrap_or(tmp).join("screenshots");
    std::fs::create_dir_all(&dir).expect("screenshot dir");
    let png = c.screenshot().await.expect("screenshot");
    std::fs::write(dir.join(format!("{name}.png")), png).expect("screenshot written");
}

async fn count(c: &Client, css: &str) -> usize {
    c.find_all(Locator::Css(css)).await.expect("find").len()
}

async fn url(c: &Client) -> String {
    c.current_url().await.expect("url").to_string()
}

/// No dialog opened (an `alert` from a caption would be one).
async fn no_dialog(c: &Client) {
    assert!(
        c.get_alert_text().await.is_err(),
        "a dialog opened: a caption's script ran"
    );
}

/// Every resource the page loaded came from the server.
async fn only_local_requests(c: &Client, origin: &str) {
    let urls = c
        .execute("return performance.getEntriesByType('resource').map(e => e.name).concat([location.href])", vec![])
        .await
        .expect("script");
    for u in urls.as_array().expect("list") {
        let u = u.as_str().expect("url");
        assert!(u.starts_with(origin), "a request left the server: {u}");
    }
}

async fn hover(c: &Client, css: &str) {
    let element = c.find(Locator::Css(css)).await.expect(css);
    let actions = MouseActions::new("mouse".into()).then(PointerAction::MoveToElement {
        element,
        duration: None,
        x: 0.0,
        y: 0.0,
    });
    c.perform_actions(actions).await.expect("hover");
}

async fn has_class(c: &Client, css: &str, class: &str) -> bool {
    let e = c.find(Locator::Css(css)).await.expect(css);
    e.attr("class")
        .await
        .expect("class")
        .unwrap_or_default()
        .split(' ')
        .any(|k| k == class)
}

async fn type_into(c: &Client, id: &str, text: &str) {
    let input = c.find(Locator::Id(id)).await.expect(id);
    input.send_keys(text).await.expect("type");
}

async fn click(c: &Client, id: &str) {
    let button = c.find(Locator::Id(id)).await.expect(id);
    button.click().await.expect("click");
}

/// Fills the record page's correction form for City and submits it.
async fn correct_city(c: &Client, value: &str) {
    let field = c.find(Locator::Id("field")).await.expect("field");
    field
        .select_by_value("location.city")
        .await
        .expect("select");
    type_into(c, "value", value).await;
    click(c, "save-correction").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pages_work_in_chromium() {
    if !browser_present() {
        return;
    }
    let f = Fixture::new();
    let (addr, stop) = start_server(&f).await;
    let origin = format!("http://{addr}");
    let driver = start_driver().await;
    let profile = tempfile::tempdir().expect("profile dir");
    let c = browser(&driver, profile.path()).await;

    // Search page: every record, hostile captions shown as text.
    c.goto(&format!("{origin}/")).await.expect("goto");
    settled(&c).await;
    assert_eq!(count(&c, "li.hit").await as u64, f.records());
    no_dialog(&c).await;
    let xss = c
        .find(Locator::Css(&format!(
            "li.hit[data-id='{}'] .caption",
            f.xss
        )))
        .await
        .expect("the hostile caption");
    let text = xss.text().await.expect("text");
    assert!(
        text.contains("<script>alert('x')</script>")
            && text.contains("<img src=x onerror=alert(2)>"),
        "{text}"
    );
    assert_eq!(
        count(
            &c,
            ".caption script, .caption img, .caption a, a[href^='javascript']"
        )
        .await,
        0
    );
    assert_eq!(xss.attr("dir").await.expect("dir").as_deref(), Some("auto"));
    shot(&c, "search").await;

    // The query box takes the CLI's syntax.
    let q = c.find(Locator::Id("q")).await.expect("box");
    q.clear().await.expect("clear");
    unsettle(&c).await;
    q.send_keys("shops --agency Reuters\n").await.expect("type");
    settled(&c).await;
    assert!(
        url(&c).await.contains("agency=Reuters"),
        "{}",
        url(&c).await
    );
    assert!(count(&c, "li.hit").await >= 1);
    assert!(count(&c, "li.hit mark.q").await >= 1, "query words marked");
    assert!(
        count(&c, "li.hit .s-credit").await >= 1,
        "extracted spans marked"
    );

    // Facet click.
    c.goto(&format!("{origin}/")).await.expect("goto");
    settled(&c).await;
    unsettle(&c).await;
    c.find(Locator::Css(
        "button.facet[data-dim='country'][data-value='Syria']",
    ))
    .await
    .expect("Syria facet")
    .click()
    .await
    .expect("click");
    settled(&c).await;
    assert!(url(&c).await.contains("country=Syria"));
    let syrian = count(&c, "li.hit").await;
    assert!(syrian >= 2 && (syrian as u64) < f.records());

    // Histogram brush: drag across the bars.
    c.goto(&format!("{origin}/")).await.expect("goto");
    settled(&c).await;
    unsettle(&c).await;
    let svg = c.find(Locator::Id("histogram")).await.expect("histogram");
    let brush = MouseActions::new("mouse".into())
        .then(PointerAction::MoveToElement {
            element: svg.clone(),
            duration: None,
            x: -600.0,
            y: 0.0,
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::MoveToElement {
            element: svg,
            duration: Some(Duration::from_millis(100)),
            x: 600.0,
            y: 0.0,
        })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    c.perform_actions(brush).await.expect("brush");
    settled(&c).await;
    let brushed = url(&c).await;
    assert!(
        brushed.contains("from=") && brushed.contains("to="),
        "{brushed}"
    );

    // Map click: a country with records.
    c.goto(&format!("{origin}/")).await.expect("goto");
    settled(&c).await;
    unsettle(&c).await;
    c.find(Locator::Css("#map path.country[data-code='IQ']"))
        .await
        .expect("Iraq outline")
        .click()
        .await
        .expect("click");
    settled(&c).await;
    assert!(url(&c).await.contains("country=IQ"), "{}", url(&c).await);
    assert_eq!(count(&c, "li.hit").await, 1);
    only_local_requests(&c, &origin).await;

    // Division outlines (Natural Earth admin-1) with their counts; a click
    // filters to the division.
    c.goto(&format!("{origin}/?country=SY"))
        .await
        .expect("goto");
    settled(&c).await;
    let homs = c
        .find(Locator::Css(
            "#map path.division.outline[data-code='SY.11']",
        ))
        .await
        .expect("the Homs governorate outline");
    assert_eq!(
        homs.attr("data-count").await.expect("count").as_deref(),
        Some("1")
    );
    let title = c
        .find(Locator::Css("#map path.division[data-code='SY.11'] title"))
        .await
        .expect("title")
        .html(true)
        .await
        .expect("text");
    assert!(title.ends_with("(SY.11): 1"), "{title}");
    assert!(
        count(&c, "#map path.division.outline").await >= 3,
        "Homs, Aleppo and Raqqa drawn as outlines"
    );
    shot(&c, "map-admin1").await;
    unsettle(&c).await;
    homs.click().await.expect("click");
    settled(&c).await;
    assert!(
        url(&c).await.contains("province=SY.11"),
        "{}",
        url(&c).await
    );
    assert_eq!(count(&c, "li.hit").await, 1);
    assert!(has_class(&c, "#map path.division[data-code='SY.11']", "active").await);

    // Record page: field -> span and span -> field.
    c.goto(&format!("{origin}/r/{}", f.homs))
        .await
        .expect("goto");
    settled(&c).await;
    hover(&c, "tr[data-field='location.city']").await;
    assert!(
        has_class(&c, "#caption .s-place", "lit").await,
        "hovering City lights the place span"
    );
    hover(&c, "#caption .s-credit").await;
    assert!(
        has_class(&c, "tr[data-field='credit.raw']", "lit").await,
        "hovering the credit lights its row"
    );
    assert!(
        count(&c, "#variants .variant").await == 2 && count(&c, "#variants ins").await >= 1,
        "variants with a diff"
    );
    let sha256 = archive::DocumentHashes::of(fixture::CAPTIONS[0].as_bytes()).sha256;
    let provenance = c
        .find(Locator::Id("occurrences"))
        .await
        .expect("occurrences")
        .text()
        .await
        .expect("text");
    assert!(
        provenance.contains("SHA-256") && provenance.contains(&sha256),
        "each occurrence shows its document's SHA-256: {provenance}"
    );
    shot(&c, "record").await;

    // A correction without the token is refused, with it saved.
    correct_city(&c, "Hama").await;
    c.wait()
        .at_most(PATIENCE)
        .for_element(Locator::XPath(
            "//*[@id='review-status'][contains(., 'refused')]",
        ))
        .await
        .expect("refused");
    type_into(&c, "token", TOKEN).await;
    type_into(&c, "reviewer", "Ana").await;
    unsettle(&c).await;
    click(&c, "set-token").await;
    settled(&c).await;
    correct_city(&c, "Hama").await;
    c.wait()
        .at_most(PATIENCE)
        .for_element(Locator::XPath(
            "//tr[@data-field='location.city'][contains(., 'Hama')]",
        ))
        .await
        .expect("corrected value shown");
    assert!(count(&c, "#log tr.entry").await >= 1);
    no_dialog(&c).await;

    // Review queue: keyboard marks the current record checked.
    c.goto(&format!("{origin}/review")).await.expect("goto");
    settled(&c).await;
    let before = count(&c, "li.queued").await;
    unsettle(&c).await;
    c.find(Locator::Css("body"))
        .await
        .expect("body")
        .send_keys("c")
        .await
        .expect("key");
    settled(&c).await;
    c.wait()
        .at_most(PATIENCE)
        .for_element(Locator::XPath("//*[@id='status'][contains(., 'checked')]"))
        .await
        .expect("marked");
    assert_eq!(count(&c, "li.queued").await, before - 1);
    shot(&c, "review").await;
    only_local_requests(&c, &origin).await;

    c.close().await.expect("close");
    let _ = stop.send(());
    drop(driver);
}

/// Captions that would run script if any page put them in as HTML: each
/// would set `window.__xss` (or open a dialog), and a reversed-text
/// override in the middle of a caption.
const HOSTILE: &[&str] = &[
    "<script>window.__xss=1</script> Police stand guard in Kyiv, Ukraine, March 3, 2014, beside <img src=x onerror=\"window.__xss=2;alert(2)\"> a barricade. REUTERS/Ivan Petrenko",
    "Students march <a href=\"javascript:window.__xss=3\">javascript:window.__xss=3</a> in Tunis, Tunisia, January 14, 2011. <svg onload=\"window.__xss=4\"></svg> REUTERS/Zoubeir Souissi",
    "Crowds gather in Cairo, Egypt, \u{202E}gpj.exe\u{202C} February 1, 2011. REUTERS/Amr Dalsh",
    "أطفال يلعبون كرة القدم في مخيم قرب أربيل، العراق، 2015. REUTERS/Sara Lind",
];

/// Nothing of a hostile caption became markup or ran: no marker, no
/// dialog, no element a caption's tags would make, every script the
/// page's own. (The server's CSP forbids inline script as well, so the
/// marker alone could not catch a page that inserts captions as HTML;
/// the element counts and the literal text below do.)
async fn nothing_ran(c: &Client) {
    no_dialog(c).await;
    let found = c
        .execute(
            "return {
               marker: window.__xss === undefined ? null : window.__xss,
               injected: document.querySelectorAll(
                 \"img[src='x'], [onerror], [onload], a[href^='javascript'], main script, main svg\").length,
               inline_scripts: document.querySelectorAll('script:not([src])').length,
             }",
            vec![],
        )
        .await
        .expect("script");
    assert_eq!(
        found,
        json!({"marker": null, "injected": 0, "inline_scripts": 0}),
        "a caption's markup made it into the page"
    );
}

/// The text, `dir` attribute and computed direction and bidi of the
/// first element matching `css`.
async fn text_and_direction(c: &Client, css: &str) -> (String, String, String, String) {
    let got = c
        .execute(
            "const e = document.querySelector(arguments[0]);
             if (!e) return null;
             const s = getComputedStyle(e);
             return [e.textContent, e.getAttribute('dir') || '', s.direction, s.unicodeBidi];",
            vec![json!(css)],
        )
        .await
        .expect("script");
    let part = |i: usize| {
        got[i]
            .as_str()
            .unwrap_or_else(|| panic!("{css}: {got}"))
            .to_string()
    };
    (part(0), part(1), part(2), part(3))
}

/// What each hostile caption must read as: its markup as text.
fn literal_parts(i: usize) -> &'static [&'static str] {
    match i {
        0 => &[
            "<script>window.__xss=1</script>",
            "<img src=x onerror=\"window.__xss=2;alert(2)\">",
        ],
        1 => &[
            "<a href=\"javascript:window.__xss=3\">",
            "<svg onload=\"window.__xss=4\"></svg>",
        ],
        2 => &["\u{202E}gpj.exe\u{202C}"],
        _ => &["أطفال يلعبون كرة القدم"],
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_and_right_to_left_captions_stay_text_on_record_and_review_pages() {
    if !browser_present() {
        return;
    }
    let (f, ids) = Fixture::with(HOSTILE);
    assert_eq!(ids.len(), HOSTILE.len());
    let (addr, stop) = start_server(&f).await;
    let origin = format!("http://{addr}");
    let driver = start_driver().await;
    let profile = tempfile::tempdir().expect("profile dir");
    let c = browser(&driver, profile.path()).await;
    let arabic = HOSTILE.len() - 1;

    // Each record page: the caption and its fields are text.
    for (i, id) in ids.iter().enumerate() {
        c.goto(&format!("{origin}/r/{id}")).await.expect("goto");
        settled(&c).await;
        // An image error or a load event fires after the draw: let any run.
        tokio::time::sleep(Duration::from_millis(300)).await;
        nothing_ran(&c).await;
        let (text, dir, direction, bidi) = text_and_direction(&c, "#caption").await;
        for part in literal_parts(i) {
            assert!(text.contains(part), "record {i}: {part:?} not in {text:?}");
        }
        assert_eq!(dir, "auto", "record {i}");
        let expected = if i == arabic { "rtl" } else { "ltr" };
        assert_eq!(direction, expected, "record {i}: {text:?}");
        assert_eq!(
            bidi, "plaintext",
            "record {i}: an override stays in the caption"
        );
        let (description, dir, _, _) =
            text_and_direction(&c, "tr[data-field='description'] td").await;
        assert_eq!(dir, "auto", "record {i}");
        assert!(
            description.contains(literal_parts(i)[0]) || i == 2,
            "record {i}: the description field shows its markup as text: {description:?}"
        );
        if i == 0 {
            shot(&c, "record-hostile").await;
        }
        if i == arabic {
            shot(&c, "record-arabic").await;
        }
    }
    only_local_requests(&c, &origin).await;

    // The review queue lists them all, as text.
    c.goto(&format!("{origin}/review")).await.expect("goto");
    settled(&c).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    nothing_ran(&c).await;
    for (i, id) in ids.iter().enumerate() {
        let css = format!("li.queued[data-id='{id}'] .caption");
        let (text, dir, direction, bidi) = text_and_direction(&c, &css).await;
        for part in literal_parts(i) {
            assert!(text.contains(part), "queued {i}: {part:?} not in {text:?}");
        }
        assert_eq!(dir, "auto", "queued {i}");
        let expected = if i == arabic { "rtl" } else { "ltr" };
        assert_eq!(direction, expected, "queued {i}: {text:?}");
        assert_eq!(bidi, "plaintext", "queued {i}");
    }
    shot(&c, "review-hostile").await;
    only_local_requests(&c, &origin).await;

    c.close().await.expect("close");
    let _ = stop.send(());
    drop(driver);
}
