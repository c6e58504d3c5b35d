// dateline: helpers shared by the pages. Every piece of archive text goes
// into the page through textContent or attributes, never as HTML.
"use strict";

const D = (() => {
  /** An element with attributes and children (strings become text nodes). */
  function el(tag, attrs, ...children) {
    const svg = ["svg", "g", "path", "rect", "circle", "title", "text", "line"].includes(tag);
    const e = svg ? document.createElementNS("http://www.w3.org/2000/svg", tag) : document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "text") e.textContent = String(v);
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else if (k === "href") e.setAttribute("href", safeHref(v));
      else e.setAttribute(k, String(v));
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return e;
  }

  /** Only links into this server (relative paths); anything else is inert. */
  function safeHref(v) {
    const s = String(v);
    return s.startsWith("/") && !s.startsWith("//") ? s : "#";
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
    return node;
  }

  const store = {
    get token() { return localStorage.getItem("dateline-token") || ""; },
    set token(v) { v ? localStorage.setItem("dateline-token", v) : localStorage.removeItem("dateline-token"); },
    get reviewer() { return localStorage.getItem("dateline-reviewer") || ""; },
    set reviewer(v) { localStorage.setItem("dateline-reviewer", v); },
  };

  /** A JSON API call; rejects with the server's message. */
  async function api(path, options) {
    const opts = Object.assign({ headers: {} }, options || {});
    if (store.token) opts.headers["Authorization"] = "Bearer " + store.token;
    if (opts.json !== undefined) {
      opts.method = opts.method || "POST";
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(opts.json);
    }
    const response = await fetch(path, opts);
    const body = await response.json().catch(() => ({}));
    if (!response.ok) {
      const err = new Error(body.error || response.status + " " + response.statusText);
      err.status = response.status;
      throw err;
    }
    return body;
  }

  /** The token and reviewer controls in the header. */
  function authControls(onChange) {
    const slot = document.getElementById("auth");
    if (!slot) return;
    clear(slot);
    if (store.token) {
      slot.append(el("span", { class: "chip", text: "token set" + (store.reviewer ? " · " + store.reviewer : "") }),
        el("button", { type: "button", id: "forget-token", text: "Forget token", onclick: () => { store.token = ""; authControls(onChange); if (onChange) onChange(); } }));
    } else {
      const token = el("input", { id: "token", type: "password", placeholder: "token (for corrections)", autocomplete: "off", "aria-label": "API token" });
      const name = el("input", { id: "reviewer", type: "text", placeholder: "your name", value: store.reviewer, "aria-label": "Reviewer name", dir: "auto" });
      const form = el("form", { class: "auth", onsubmit: (ev) => {
        ev.preventDefault();
        store.token = token.value.trim();
        store.reviewer = name.value.trim();
        authControls(onChange);
        if (onChange) onChange();
      } }, token, name, el("button", { type: "submit", id: "set-token", text: "Use" }));
      slot.append(form);
    }
  }

  /** UTF-8 byte offset -> UTF-16 index table of a string (spans are bytes). */
  function byteIndex(text) {
    const map = new Array(new TextEncoder().encode(text).length + 1);
    let b = 0;
    for (let i = 0; i < text.length; i++) {
      const cp = text.codePointAt(i);
      const n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
      for (let k = 0; k < n; k++) map[b + k] = i;
      b += n;
      if (cp >= 0x10000) i++;
    }
    map[b] = text.length;
    return map;
  }

  /**
   * The text cut at the ranges' edges, each piece a span carrying the
   * ranges that cover it (class names and data-field keys). Ranges are
   * [start, end, {cls, key, title}] in UTF-16 indices. The text is unchanged.
   */
  function marked(text, ranges) {
    const cuts = new Set([0, text.length]);
    for (const [s, e] of ranges) { cuts.add(s); cuts.add(e); }
    const points = [...cuts].filter((p) => p >= 0 && p <= text.length).sort((a, b) => a - b);
    const frag = document.createDocumentFragment();
    for (let i = 0; i + 1 < points.length; i++) {
      const [s, e] = [points[i], points[i + 1]];
      const piece = text.slice(s, e);
      const over = ranges.filter(([rs, re]) => rs <= s && re >= e && re > rs);
      if (!over.length) { frag.append(document.createTextNode(piece)); continue; }
      const classes = [...new Set(over.map((r) => r[2].cls))].join(" ");
      const keys = [...new Set(over.map((r) => r[2].key).filter(Boolean))].join(" ");
      const titles = [...new Set(over.map((r) => r[2].title).filter(Boolean))].join("; ");
      const isQuery = over.some((r) => r[2].cls === "q");
      frag.append(el(isQuery ? "mark" : "span", { class: classes, "data-fields": keys || null, title: titles || null, text: piece }));
    }
    return frag;
  }

  /** The evidence spans of a record: [startByte, endByte, {cls, key, title}]. */
  function spansOf(record) {
    const out = [];
    const add = (span, cls, key, title) => {
      if (Array.isArray(span) && span.length === 2 && span[1] > span[0]) out.push([span[0], span[1], { cls, key, title }]);
    };
    add(record.credit && record.credit.span, "s-credit", "credit.raw", "Credit Line");
    (record.dates || []).forEach((d, i) => add(d.span, "s-date", "dates." + i, "Date (" + d.role + ")"));
    add(record.location && record.location.span, "s-place", "location.text", "Location");
    (record.persons || []).forEach((p, i) => add(p.span, "s-person", "persons." + i, "Person Shown"));
    return out;
  }

  /** Ranges of the words in `words` inside `text` (case-insensitive). */
  function wordRanges(text, words, cls) {
    const out = [];
    const lower = text.toLowerCase();
    for (const w of new Set(words.map((w) => w.toLowerCase()).filter((w) => w.length > 1))) {
      let at = lower.indexOf(w);
      while (at >= 0) {
        out.push([at, at + w.length, { cls, title: "matches the query" }]);
        at = lower.indexOf(w, at + w.length);
      }
    }
    return out;
  }

  /** The caption with spans (bytes converted) and query words marked. */
  function caption(record, queryWords) {
    const text = record.text || "";
    const map = byteIndex(text);
    const ranges = spansOf(record)
      .filter(([s, e]) => map[s] !== undefined && map[e] !== undefined)
      .map(([s, e, m]) => [map[s], map[e], m]);
    return marked(text, ranges.concat(wordRanges(text, queryWords || [], "q")));
  }

  const FLAG_TEXT = {
    weekday_mismatch: "weekday ≠ date", unverified: "unverified", handout: "handout",
    still_from_video: "video still", file_photo: "file photo", truncated: "cut short",
    no_credit: "no credit", no_date: "no date", location_unresolved: "place unresolved",
  };

  function flagBadge(flag) {
    return el("span", { class: "badge flag-" + String(flag).replace(/[^a-z_]/g, ""), title: flag, text: FLAG_TEXT[flag] || flag });
  }

  return { el, clear, api, store, authControls, byteIndex, marked, spansOf, wordRanges, caption, flagBadge };
})();
