// dateline: the offline map. Country outlines (Natural Earth, generated
// into /assets/world.json by `cargo xtask map`) and first-level-division
// outlines (Natural Earth admin-1 by GeoNames code, /assets/admin1.json
// from `cargo xtask admin1`) filled by count; a division without an
// outline is a circle at its largest place. A click filters. No tiles, no
// network.
"use strict";

const DMap = (() => {
  const { el, clear } = D;
  let world = null;
  let admin1 = null;
  /** Decoded division rings by code, filled as divisions are drawn. */
  const divisionRings = new Map();
  const W = 360, H = 180;

  /** Equirectangular: longitude and latitude straight onto the plane. */
  const x = (lon) => lon + 180;
  const y = (lat) => 90 - lat;

  async function outlines() {
    if (!world) {
      const r = await fetch("/assets/world.json");
      world = r.ok ? await r.json() : { countries: [] };
    }
    return world;
  }

  async function divisionOutlines() {
    if (!admin1) {
      const r = await fetch("/assets/admin1.json");
      const data = r.ok ? await r.json() : { divisions: [] };
      admin1 = new Map(data.divisions.map((d) => [d.code, d]));
      admin1.unit = data.unit || 0.01;
    }
    return admin1;
  }

  /** A division's rings as [lon, lat] (stored delta-coded in units). */
  function ringsOf(code) {
    if (divisionRings.has(code)) return divisionRings.get(code);
    const d = admin1.get(code);
    const rings = d ? d.rings.map((coded) => {
      const ring = [];
      let lon = 0, lat = 0;
      for (let i = 0; i + 1 < coded.length; i += 2) {
        lon += coded[i]; lat += coded[i + 1];
        ring.push([lon * admin1.unit, lat * admin1.unit]);
      }
      return ring;
    }) : null;
    divisionRings.set(code, rings);
    return rings;
  }

  /** A country's rings (arrays of [lon, lat]) as one SVG path. */
  function pathOf(rings) {
    return rings.map((ring) => "M" + ring.map(([lon, lat]) => x(lon).toFixed(2) + "," + y(lat).toFixed(2)).join("L") + "Z").join("");
  }

  /**
   * The part of the world holding the counted countries, padded, at least
   * 40 by 20 degrees, in the map's 2:1 shape: the records' region fills the
   * box instead of a world where most countries are a pixel wide.
   */
  function view(data, counts) {
    let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const c of data.countries) {
      if (!counts.has(c.code)) continue;
      for (const ring of c.rings) for (const [lon, lat] of ring) {
        x0 = Math.min(x0, x(lon)); x1 = Math.max(x1, x(lon));
        y0 = Math.min(y0, y(lat)); y1 = Math.max(y1, y(lat));
      }
    }
    if (!isFinite(x0)) return [0, 0, W, H];
    let w = Math.max(40, x1 - x0 + 10), h = Math.max(20, y1 - y0 + 10);
    if (w < 2 * h) w = 2 * h; else h = w / 2;
    if (w >= W) return [0, 0, W, H];
    const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
    const left = Math.min(Math.max(0, cx - w / 2), W - w), top = Math.min(Math.max(0, cy - h / 2), H - h);
    return [left, top, w, h];
  }

  async function render(svg, countries, divisions, params, setParam) {
    const [data] = await Promise.all([outlines(), divisionOutlines()]);
    clear(svg);
    const counts = new Map(countries.areas.map((a) => [a.code, a]));
    const max = Math.max(1, ...countries.areas.map((a) => a.count));
    const drawn = new Set();
    for (const c of data.countries) {
      const area = counts.get(c.code);
      const level = area ? Math.ceil((Math.log(area.count + 1) / Math.log(max + 1)) * 5) : 0;
      const active = params.get("country") === c.code;
      const shape = el("path", { d: pathOf(c.rings), class: "country l" + level + (active ? " active" : ""), "data-code": c.code },
        el("title", { text: c.name + (area ? ": " + area.count : "") }));
      if (area) {
        drawn.add(c.code);
        shape.addEventListener("click", () => setParam("country", active ? null : c.code));
      }
      svg.append(shape);
    }
    const box = view(data, counts);
    // Circles keep their size on screen whatever the zoom.
    const unit = box[2] / 180;
    const dmax = Math.max(1, ...divisions.areas.map((a) => a.count));
    const circles = [];
    for (const a of divisions.areas) {
      const active = params.get("province") === a.code;
      const title = el("title", { text: a.name + " (" + a.code + "): " + a.count });
      const onclick = () => setParam("province", active ? null : a.code);
      const rings = ringsOf(a.code);
      if (rings) {
        const level = Math.ceil((Math.log(a.count + 1) / Math.log(dmax + 1)) * 5);
        svg.append(el("path", { d: pathOf(rings), class: "division outline l" + level + (active ? " active" : ""), "data-code": a.code, "data-count": a.count, onclick }, title));
        continue;
      }
      if (a.latitude === null || a.longitude === null) continue;
      const r = (0.6 + 3.2 * Math.sqrt(a.count / dmax)) * unit;
      circles.push(el("circle", {
        cx: x(a.longitude), cy: y(a.latitude), r, class: "division" + (active ? " active" : ""), "data-code": a.code, "data-count": a.count, onclick,
      }, title));
    }
    // Circles over the outlines, so none hides under a filled division.
    svg.append(...circles);
    svg.setAttribute("viewBox", box.join(" "));
    const missing = countries.areas.filter((a) => !drawn.has(a.code));
    const note = document.getElementById("map-note");
    note.textContent = countries.unplaced + " without a country" + (missing.length ? "; not on the outline map: " + missing.map((a) => a.name + " " + a.count).join(", ") : "");
  }

  return { render };
})();
