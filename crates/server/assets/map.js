// dateline: the offline map. Country outlines (Natural Earth, generated
// into /assets/world.json by `cargo xtask map`) filled by count, divisions
// as circles at their largest place; a click filters. No tiles, no network.
"use strict";

const DMap = (() => {
  const { el, clear } = D;
  let world = null;
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

  /** A country's rings (arrays of [lon, lat]) as one SVG path. */
  function pathOf(rings) {
    return rings.map((ring) => "M" + ring.map(([lon, lat]) => x(lon).toFixed(2) + "," + y(lat).toFixed(2)).join("L") + "Z").join("");
  }

  async function render(svg, countries, divisions, params, setParam) {
    const data = await outlines();
    clear(svg);
    svg.setAttribute("viewBox", "0 0 " + W + " " + H);
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
    const dmax = Math.max(1, ...divisions.areas.map((a) => a.count));
    for (const a of divisions.areas) {
      if (a.latitude === null || a.longitude === null) continue;
      const r = 0.6 + 3.2 * Math.sqrt(a.count / dmax);
      const active = params.get("province") === a.code;
      svg.append(el("circle", {
        cx: x(a.longitude), cy: y(a.latitude), r, class: "division" + (active ? " active" : ""), "data-code": a.code,
        onclick: () => setParam("province", active ? null : a.code),
      }, el("title", { text: a.name + " (" + a.code + "): " + a.count })));
    }
    const missing = countries.areas.filter((a) => !drawn.has(a.code));
    const note = document.getElementById("map-note");
    note.textContent = countries.unplaced + " without a country" + (missing.length ? "; not on the outline map: " + missing.map((a) => a.name + " " + a.count).join(", ") : "");
  }

  return { render };
})();
