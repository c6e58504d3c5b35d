// dateline: the search page. Its whole state is the URL's query string,
// whose parameters are `dateline search`'s flags (q is the query text).
"use strict";

(() => {
  const { el, clear, api } = D;
  const FILTERS = ["agency", "creator", "country", "city", "province", "from", "to", "flag", "near", "person", "org"];
  const FACET_FILTER = { agency: "agency", creator: "creator", source: null, country: "country", province: "province", city: "city", person: "person", org: "org", flag: "flag", year: null };
  const FACET_TITLES = { agency: "Agency", creator: "Creator", source: "Source", country: "Country", province: "Province/State", city: "City", person: "Person Shown", org: "Organisation", flag: "Flag", year: "Year taken" };

  function state() {
    return new URLSearchParams(location.search);
  }

  /** The selection only (what the API's selection parameters take). */
  function selection(params) {
    const out = new URLSearchParams();
    for (const k of ["q", ...FILTERS]) if (params.get(k)) out.set(k, params.get(k));
    return out;
  }

  function go(params) {
    history.pushState(null, "", "/?" + params.toString());
    render();
  }

  function setParam(key, value) {
    const p = state();
    if (value === null || value === "") p.delete(key); else p.set(key, value);
    p.delete("limit");
    go(p);
  }

  /** The query box in the CLI's syntax: words, then --flag VALUE pairs. */
  function parseBox(text) {
    const params = new URLSearchParams();
    const words = [];
    const tokens = text.match(/"[^"]*"|\S+/g) || [];
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i];
      const name = t.startsWith("--") ? t.slice(2) : null;
      if (name && FILTERS.includes(name) && i + 1 < tokens.length) {
        params.set(name, tokens[++i].replace(/^"(.*)"$/, "$1"));
      } else {
        words.push(t);
      }
    }
    if (words.length) params.set("q", words.join(" "));
    return params;
  }

  function boxText(params) {
    const parts = [];
    if (params.get("q")) parts.push(params.get("q"));
    for (const k of FILTERS) {
      const v = params.get(k);
      if (v) parts.push("--" + k + " " + (/\s/.test(v) ? '"' + v + '"' : v));
    }
    return parts.join(" ");
  }

  async function render() {
    const params = state();
    const sel = selection(params);
    document.getElementById("q").value = boxText(params);
    renderChips(params);
    for (const f of ["jsonl", "csv", "geojson"]) {
      const p = new URLSearchParams(sel);
      p.set("format", f);
      document.getElementById("export-" + f).setAttribute("href", "/api/export?" + p.toString());
    }
    const limit = params.get("limit") || "20";
    const searchParams = new URLSearchParams(sel);
    searchParams.set("limit", limit);
    searchParams.set("facets", "true");
    const summary = document.getElementById("summary");
    try {
      const [results, hist, countries, divisions] = await Promise.all([
        api("/api/search?" + searchParams),
        api("/api/histogram?" + withParam(sel, "bucket", bucketFor(params))),
        api("/api/map?" + withParam(sel, "level", "country")),
        api("/api/map?" + withParam(sel, "level", "admin1")),
      ]);
      renderHits(results, params);
      renderFacets(results.facets || {}, params);
      renderHistogram(hist);
      // Drawn before the page says it is ready (the outlines are fetched once).
      await DMap.render(document.getElementById("map"), countries, divisions, params, setParam);
      document.body.setAttribute("data-ready", "1");
    } catch (err) {
      clear(summary).append(el("span", { class: "error", text: err.message }));
      clear(document.getElementById("hits"));
      document.body.setAttribute("data-ready", "1");
    }
  }

  function withParam(sel, k, v) {
    const p = new URLSearchParams(sel);
    p.set(k, v);
    return p.toString();
  }

  /** Day bars inside a month or two, month bars inside a few years. */
  function bucketFor(params) {
    const from = params.get("from") || "", to = params.get("to") || "";
    if (from.length >= 7 && to.length >= 7 && from.slice(0, 4) === to.slice(0, 4) && Math.abs(+to.slice(5, 7) - +from.slice(5, 7)) <= 2) return "day";
    if (from && to && Math.abs(+to.slice(0, 4) - +from.slice(0, 4)) <= 5) return "month";
    return params.get("bucket") || "month";
  }

  function renderChips(params) {
    const box = clear(document.getElementById("filters"));
    for (const k of FILTERS) {
      const v = params.get(k);
      if (!v) continue;
      box.append(el("button", { type: "button", class: "chip filter", "data-filter": k, title: "Remove this filter", onclick: () => setParam(k, null) }, k + ": ", el("bdi", { text: v }), " ×"));
    }
  }

  function renderHits(results, params) {
    const summary = clear(document.getElementById("summary"));
    const shown = results.hits.length;
    summary.append(results.total + " record" + (results.total === 1 ? "" : "s") + (shown < results.total ? ", best " + shown + " shown" : ""));
    if (results.index_behind > 0) summary.append(el("span", { class: "note", text: " (index " + results.index_behind + " change(s) behind the store)" }));
    const list = clear(document.getElementById("hits"));
    for (const hit of results.hits) {
      const r = hit.record;
      const words = highlighted(hit);
      const place = [r.location && r.location.city, r.location && r.location.province, r.location && r.location.country].filter(Boolean).join(", ");
      const date = r.date_created ? r.date_created + " (" + precisionOf(r.date_created) + ")" : "undated";
      const meta = el("div", { class: "meta" },
        el("a", { class: "open", href: "/r/" + encodeURIComponent(hit.id), text: "open" }), " · ",
        el("span", { class: "date", text: date }), " · ",
        el("bdi", { class: "place", text: place || "no place" }),
        r.location && r.location.geonames_id ? el("span", { class: "geonames", text: " · GeoNames " + r.location.geonames_id }) : null,
        " · ", el("bdi", { class: "credit", text: (r.credit && r.credit.raw) || "no credit" }));
      const badges = el("div", { class: "badges" },
        (r.flags || []).map(D.flagBadge),
        r.archive && r.archive.variants > 1 ? el("span", { class: "badge cluster", text: r.archive.variants + " variants" }) : null,
        r.archive && r.archive.occurrences > 1 ? el("span", { class: "badge occ", text: r.archive.occurrences + " occurrences" }) : null,
        (r.corrections || []).length ? el("span", { class: "badge corrected", text: "corrected" }) : null,
        hit.review_state !== "unreviewed" ? el("span", { class: "badge state-" + hit.review_state, text: hit.review_state }) : null);
      list.append(el("li", { class: "hit", "data-id": hit.id }, el("p", { class: "caption", dir: "auto" }, D.caption(r, words)), meta, badges));
    }
    const pager = clear(document.getElementById("pager"));
    if (shown < results.total && shown < 200) {
      pager.append(el("button", { type: "button", id: "more", text: "Show more", onclick: () => { const p = state(); p.set("limit", String(Math.min(200, shown + 20))); go(p); } }));
    }
  }

  /** The words the server marked in the snippet (its stemming decides). */
  function highlighted(hit) {
    const text = hit.snippet || "";
    const map = D.byteIndex(text);
    return (hit.highlights || []).map(([s, e]) => text.slice(map[s], map[e])).filter(Boolean);
  }

  function precisionOf(date) {
    return date.length === 10 ? "day" : date.length === 7 ? "month" : "year";
  }

  function renderFacets(facets, params) {
    const box = clear(document.getElementById("facets"));
    for (const dim of Object.keys(FACET_TITLES)) {
      const values = facets[dim] || [];
      if (!values.length) continue;
      const key = FACET_FILTER[dim];
      const list = el("ul", {});
      for (const { value, count } of values.slice(0, 12)) {
        const active = key && params.get(key) === value;
        const onclick = () => {
          if (dim === "year") { const p = state(); p.set("from", value); p.set("to", value); p.delete("limit"); go(p); return; }
          if (dim === "source") { setParam("q", ((params.get("q") || "") + ' "' + value + '"').trim()); return; }
          setParam(key, active ? null : value);
        };
        list.append(el("li", {}, el("button", { type: "button", class: "facet" + (active ? " active" : ""), "data-dim": dim, "data-value": value, onclick },
          el("bdi", { text: value }), el("span", { class: "count", text: String(count) }))));
      }
      box.append(el("section", { class: "facet-group" }, el("h3", { text: FACET_TITLES[dim] }), list));
    }
  }

  /** Bars stacked by precision; drag across bars to set from/to. */
  function renderHistogram(h) {
    const svg = clear(document.getElementById("histogram"));
    const bars = h.bars.filter((b) => b.precision === h.bucket);
    const coarse = h.bars.filter((b) => b.precision !== h.bucket);
    document.getElementById("undated").textContent = "undated: " + h.undated;
    document.getElementById("coarse").textContent = coarse.length ? " · known only to the " + coarse[0].precision + ": " + coarse.map((b) => b.period + " (" + (b.day + b.month + b.year) + ")").join(", ") : "";
    const W = 900, H = 90, n = Math.max(bars.length, 1), w = W / n;
    svg.setAttribute("viewBox", "0 0 " + W + " " + (H + 14));
    svg.setAttribute("preserveAspectRatio", "none");
    const max = Math.max(1, ...bars.map((b) => b.day + b.month + b.year));
    bars.forEach((b, i) => {
      const g = el("g", { class: "bar", "data-period": b.period, "data-index": i });
      let y = H;
      for (const p of ["day", "month", "year"]) {
        if (!b[p]) continue;
        const hgt = (b[p] / max) * H;
        y -= hgt;
        g.append(el("rect", { class: "p-" + p, x: i * w + 0.5, y, width: Math.max(w - 1, 0.5), height: hgt }));
      }
      g.append(el("rect", { class: "hit-area", x: i * w, y: 0, width: w, height: H }));
      g.append(el("title", { text: b.period + ": " + (b.day + b.month + b.year) + " (day " + b.day + ", month " + b.month + ", year " + b.year + ")" }));
      svg.append(g);
    });
    if (bars.length) {
      svg.append(el("text", { x: 2, y: H + 12, class: "axis", text: bars[0].period }));
      svg.append(el("text", { x: W - 2, y: H + 12, class: "axis end", text: bars[bars.length - 1].period }));
    }
    const brush = el("rect", { class: "brush", x: 0, y: 0, width: 0, height: H });
    svg.append(brush);
    let start = null;
    const indexAt = (ev) => {
      const box = svg.getBoundingClientRect();
      return Math.max(0, Math.min(n - 1, Math.floor(((ev.clientX - box.left) / box.width) * n)));
    };
    svg.onpointerdown = (ev) => { if (!bars.length) return; start = indexAt(ev); svg.setPointerCapture && svg.setPointerCapture(ev.pointerId); draw(start, start); };
    svg.onpointermove = (ev) => { if (start !== null) draw(start, indexAt(ev)); };
    svg.onpointerup = (ev) => {
      if (start === null) return;
      const end = indexAt(ev);
      const [a, b] = [Math.min(start, end), Math.max(start, end)];
      start = null;
      const p = state();
      p.set("from", bars[a].period);
      p.set("to", bars[b].period);
      p.delete("limit");
      go(p);
    };
    function draw(a, b) {
      const [lo, hi] = [Math.min(a, b), Math.max(a, b)];
      brush.setAttribute("x", lo * w);
      brush.setAttribute("width", (hi - lo + 1) * w);
    }
  }

  document.getElementById("search").addEventListener("submit", (ev) => {
    ev.preventDefault();
    go(parseBox(document.getElementById("q").value));
  });
  window.addEventListener("popstate", render);
  D.authControls();
  render();
})();
