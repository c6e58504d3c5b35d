// dateline: the review queue. Unreviewed records, flagged first; the
// keyboard moves and marks (j/k, c checked, d disputed, n note, Enter open).
"use strict";

(() => {
  const { el, clear, api } = D;
  let items = [];
  let at = 0;

  async function load() {
    const status = document.getElementById("status");
    try {
      const data = await api("/api/review/queue?limit=50");
      items = data.records;
      at = Math.min(at, Math.max(0, items.length - 1));
      draw();
      status.textContent = items.length ? items.length + " to review" : "nothing left to review";
    } catch (err) {
      status.textContent = err.message;
    }
    document.body.setAttribute("data-ready", "1");
  }

  function draw() {
    const list = clear(document.getElementById("queue"));
    items.forEach((r, i) => {
      list.append(el("li", { class: "queued" + (i === at ? " current" : ""), "data-id": r.id, onclick: () => { at = i; draw(); } },
        el("div", { class: "badges" }, (r.flags || []).map(D.flagBadge)),
        el("p", { class: "caption", dir: "auto" }, D.caption(r, [])),
        el("a", { href: "/r/" + encodeURIComponent(r.id), text: "open " + r.id })));
    });
    const current = list.children[at];
    if (current && current.scrollIntoView) current.scrollIntoView({ block: "nearest" });
  }

  async function mark(body) {
    const r = items[at];
    if (!r) return;
    const status = document.getElementById("status");
    try {
      await api("/api/records/" + encodeURIComponent(r.id) + "/review", { json: Object.assign({ reviewer: D.store.reviewer || "anonymous", note: "" }, body) });
      await load();
      // After the reload, which writes the queue's count there.
      status.textContent = r.id + ": " + (body.state || "note added") + " · " + status.textContent;
    } catch (err) {
      status.textContent = "refused: " + err.message;
    }
  }

  document.addEventListener("keydown", (ev) => {
    if (ev.target instanceof HTMLInputElement || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.key === "j") { at = Math.min(items.length - 1, at + 1); draw(); }
    else if (ev.key === "k") { at = Math.max(0, at - 1); draw(); }
    else if (ev.key === "c") mark({ state: "checked" });
    else if (ev.key === "d") mark({ state: "disputed" });
    else if (ev.key === "n") { const note = prompt("Note"); if (note) mark({ note }); }
    else if (ev.key === "Enter" && items[at]) location.href = "/r/" + encodeURIComponent(items[at].id);
    else return;
    ev.preventDefault();
  });

  D.authControls(load);
  load();
})();
