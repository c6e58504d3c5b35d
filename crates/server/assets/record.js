// dateline: the record page. The caption with each field's evidence span
// (hover a field and its span lights up, and the reverse), fields under
// their IPTC names, flags in words, review, occurrences, variants with a
// word diff.
"use strict";

(() => {
  const { el, clear, api } = D;
  const id = decodeURIComponent(location.pathname.replace(/^\/r\//, ""));

  /** IPTC names of the fields, with the span key that evidences each. */
  const FIELDS = [
    ["Description", "description", null],
    ["Creator", "credit.creators", "credit.raw"],
    ["Credit Line", "credit.raw", "credit.raw"],
    ["Source", "credit.source", "credit.raw"],
    ["Agencies", "credit.agencies", "credit.raw"],
    ["Date Created", "date_created", "dates.created"],
    ["Sublocation", "location.sublocation", "location.text"],
    ["City", "location.city", "location.text"],
    ["Province/State", "location.province", "location.text"],
    ["Province Code", "location.province_code", "location.text"],
    ["Country", "location.country", "location.text"],
    ["Country Code", "location.country_code", "location.text"],
    ["GeoNames Id", "location.geonames_id", "location.text"],
    ["Latitude", "location.latitude", null],
    ["Longitude", "location.longitude", null],
    ["Person Shown", "persons", "persons"],
    ["Organisation In Image Name", "organizations", null],
    ["Flags", "flags", null],
  ];

  function at(obj, path) {
    return path.split(".").reduce((o, k) => (o === null || o === undefined ? undefined : o[k]), obj);
  }

  function show(v) {
    if (v === null || v === undefined) return "—";
    if (Array.isArray(v)) return v.length ? v.map((x) => (x && typeof x === "object" ? x.name + (x.age ? " (" + x.age + ")" : "") : x)).join("; ") : "—";
    return String(v);
  }

  /** Which span keys a field's row lights (the created date: its mention). */
  function spanKeys(record, key) {
    if (key === "dates.created") return (record.dates || []).map((d, i) => (d.role === "created" ? "dates." + i : null)).filter(Boolean);
    if (key === "persons") return (record.persons || []).map((_, i) => "persons." + i);
    return key ? [key] : [];
  }

  function light(keys, on) {
    for (const k of keys) {
      document.querySelectorAll('[data-fields~="' + CSS.escape(k) + '"]').forEach((n) => n.classList.toggle("lit", on));
      document.querySelectorAll('tr[data-span~="' + CSS.escape(k) + '"]').forEach((n) => n.classList.toggle("lit", on));
    }
  }

  async function load() {
    let data;
    try {
      data = await api("/api/records/" + encodeURIComponent(id));
    } catch (err) {
      clear(document.getElementById("title")).append("No record: " + err.message);
      document.body.setAttribute("data-ready", "1");
      return;
    }
    const r = data.record;
    const corrected = new Map((data.corrections || []).map((c) => [c.field, c]));
    document.getElementById("title").textContent = "Record " + data.id;
    document.title = "dateline — " + data.id;
    const state = clear(document.getElementById("state"));
    state.append(el("span", { class: "badge state-" + data.review.state, id: "review-state", text: data.review.state }));
    if (r.archive && r.archive.variants > 1) state.append(el("span", { class: "badge cluster", text: r.archive.variants + " variants" }));

    // The caption: the machine's text, never altered; spans from the machine record.
    const cap = clear(document.getElementById("caption"));
    cap.append(D.caption(data.machine, []));
    cap.onmouseover = (ev) => {
      const keys = (ev.target.getAttribute && ev.target.getAttribute("data-fields")) || "";
      if (keys) light(keys.split(" "), true);
    };
    cap.onmouseout = (ev) => {
      const keys = (ev.target.getAttribute && ev.target.getAttribute("data-fields")) || "";
      if (keys) light(keys.split(" "), false);
    };

    const flags = clear(document.getElementById("flags"));
    for (const f of data.flag_reasons) flags.append(el("li", {}, D.flagBadge(f.flag), " ", el("span", { class: "reason", text: f.reason })));
    if (!data.flag_reasons.length) flags.append(el("li", { class: "note", text: "none" }));

    const fields = clear(document.getElementById("fields"));
    fields.append(el("tr", {}, el("th", { text: "IPTC field" }), el("th", { text: "Value" }), el("th", { text: "Machine value (when corrected)" })));
    for (const [name, path, span] of FIELDS) {
      const keys = spanKeys(data.machine, span);
      const c = corrected.get(path);
      let value = el("bdi", { text: show(at(r, path)) });
      if (path === "location.geonames_id" && at(r, path)) {
        const lat = at(r, "location.latitude"), lon = at(r, "location.longitude");
        value = el("span", {}, el("bdi", { text: show(at(r, path)) }), lat !== null && lat !== undefined ? el("span", { class: "coords", text: " at " + lat + ", " + lon }) : null,
          el("a", { class: "near", href: "/?near=" + encodeURIComponent(lat + "," + lon + ",25"), text: " records within 25 km" }));
      }
      const row = el("tr", { "data-span": keys.join(" ") || null, "data-field": path, class: c ? "corrected" : null },
        el("th", { text: name }), el("td", { dir: "auto" }, value), el("td", { dir: "auto", text: c ? show(c.machine) + " (corrected by " + c.reviewer + ")" : "" }));
      row.addEventListener("mouseenter", () => light(keys, true));
      row.addEventListener("mouseleave", () => light(keys, false));
      fields.append(row);
    }

    reviewForm(data);
    const log = clear(document.getElementById("log"));
    log.append(el("tr", {}, ...["When", "Reviewer", "What", "Field", "Old", "New", "Note"].map((h) => el("th", { text: h }))));
    for (const e of data.review.log) {
      log.append(el("tr", { class: "entry" }, el("td", { text: e.at }), el("td", { dir: "auto", text: e.reviewer }), el("td", { text: e.kind }), el("td", { text: e.field || "" }),
        el("td", { dir: "auto", text: e.old === null || e.old === undefined ? "" : JSON.stringify(e.old) }), el("td", { dir: "auto", text: e.new === null || e.new === undefined ? "" : JSON.stringify(e.new) }), el("td", { dir: "auto", text: e.note })));
    }

    const occ = clear(document.getElementById("occurrences"));
    occ.append(el("tr", {}, ...["Document", "SHA-256", "Content hash (XXH3-128)", "Source", "Byte offset", "Length", "First seen", "Variant", "Image"].map((h) => el("th", { text: h }))));
    for (const o of data.occurrences) {
      const d = o.document_info || {};
      occ.append(el("tr", {}, el("td", { text: o.document }), el("td", { class: "hash", text: o.sha256 || "not recorded (ingested before schema 3)" }), el("td", { class: "hash", text: d.content_hash || "" }), el("td", { dir: "auto", text: o.path }),
        el("td", { text: o.offset }), el("td", { text: o.length }), el("td", { text: d.ingested_at || "" }), el("td", { text: o.variant }), el("td", { dir: "auto", text: o.image_url || "" })));
    }

    variants(data.variants);
    document.getElementById("json").textContent = JSON.stringify(data.machine, null, 2);
    document.body.setAttribute("data-ready", "1");
  }

  function reviewForm(data) {
    const box = clear(document.getElementById("review-form"));
    if (!D.store.token) {
      box.append(el("p", { class: "note", text: "Corrections need the token dateline serve printed (set it at the top)." }));
    }
    const field = el("select", { id: "field", "aria-label": "Field" }, data.correctable.map((f) => el("option", { value: f, text: f })));
    const value = el("input", { id: "value", type: "text", dir: "auto", "aria-label": "New value", placeholder: "new value (JSON for lists and numbers)" });
    const note = el("input", { id: "note", type: "text", dir: "auto", "aria-label": "Note", placeholder: "why (optional)" });
    const status = el("span", { id: "review-status", role: "status" });
    const send = async (path, body) => {
      status.textContent = "…";
      try {
        await api(path, { json: Object.assign({ reviewer: D.store.reviewer || "anonymous", note: note.value }, body) });
        status.textContent = "saved";
        load();
      } catch (err) {
        status.textContent = "refused: " + err.message;
        status.className = "error";
      }
    };
    const base = "/api/records/" + encodeURIComponent(data.id);
    box.append(el("form", { id: "correct", onsubmit: (ev) => {
      ev.preventDefault();
      const machine = at(data.machine, field.value);
      let v = value.value;
      if (typeof machine !== "string" && v !== "") { try { v = JSON.parse(v); } catch (_) { /* sent as text; the server says why not */ } }
      if (v === "") v = null;
      send(base + "/corrections", { field: field.value, value: v });
    } }, field, value, note, el("button", { type: "submit", id: "save-correction", text: "Correct" }),
    el("button", { type: "button", id: "mark-checked", text: "Checked", onclick: () => send(base + "/review", { state: "checked" }) }),
    el("button", { type: "button", id: "mark-disputed", text: "Disputed", onclick: () => send(base + "/review", { state: "disputed" }) }),
    el("button", { type: "button", id: "add-note", text: "Add note", onclick: () => send(base + "/review", {}) }), status));
  }

  /** Word-level diff of b against a (longest common subsequence). */
  function diff(a, b) {
    const A = a.split(/(\s+)/), B = b.split(/(\s+)/);
    const n = A.length, m = B.length;
    if (n * m > 4e6) return B.map((w) => [w, "same"]);
    const L = Array.from({ length: n + 1 }, () => new Uint16Array(m + 1));
    for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) L[i][j] = A[i] === B[j] ? L[i + 1][j + 1] + 1 : Math.max(L[i + 1][j], L[i][j + 1]);
    const out = [];
    let i = 0, j = 0;
    while (i < n && j < m) {
      if (A[i] === B[j]) { out.push([B[j], "same"]); i++; j++; }
      else if (L[i + 1][j] >= L[i][j + 1]) { out.push([A[i], "del"]); i++; }
      else { out.push([B[j], "ins"]); j++; }
    }
    while (i < n) out.push([A[i++], "del"]);
    while (j < m) out.push([B[j++], "ins"]);
    return out;
  }

  function variants(list) {
    const box = clear(document.getElementById("variants"));
    const canonical = list.find((v) => v.representative) || list[0];
    for (const v of list) {
      const text = el("p", { class: "caption", dir: "auto" });
      if (v === canonical) text.append(v.text);
      else for (const [w, kind] of diff(canonical.text, v.text)) text.append(kind === "same" ? document.createTextNode(w) : el(kind === "ins" ? "ins" : "del", { text: w }));
      const truncated = (v.record.flags || []).includes("truncated") || /(\.\.\.|…)\s*(more)?\s*$/i.test(v.text);
      box.append(el("div", { class: "variant" + (v === canonical ? " canonical" : "") },
        el("h3", {}, v.id, v === canonical ? el("span", { class: "badge", text: "canonical" }) : null, truncated ? el("span", { class: "badge", text: "cut short" }) : null),
        el("p", { class: "note" }, "first seen in ", el("bdi", { text: v.first_seen_in })), text));
    }
  }

  D.authControls(load);
  load();
})();
