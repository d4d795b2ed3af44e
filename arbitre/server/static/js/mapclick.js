// Ordering on the map: a click (or tap) on a place narrows the engine's legal-order list to the orders
// whose places start with the places clicked so far. The browser never decides what is legal: it only
// filters the list the server sent. Orders in the box are drawn on the board as previews.

const SVGNS = "http://www.w3.org/2000/svg";

/** The places an order names, in its own order (only words that are places on this board). */
export function placesOf(order, known) {
  return order.toUpperCase().split(/\s+/).filter((w) => known.has(w));
}

/** Does the clicked place `clicked` stand for the order's place `place` (a province stands for its coasts)? */
export function sameSpot(clicked, place) {
  return clicked === place || place.split("/")[0] === clicked;
}

/** The legal orders (as {key, order, places}) whose places begin with `clicked`. */
export function candidates(entries, clicked) {
  return entries.filter((e) => e.places.length >= clicked.length && clicked.every((c, i) => sameSpot(c, e.places[i])));
}

function el(name, attrs) {
  const e = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

// Previews have a style of their own, never the power's colour (France's light blue or Turkey's yellow
// vanish on the map): a black line cased in white, read on land, sea and every power's colour alike.
export const PREVIEW = {ink: "#111111", casing: "#FFFFFF"};

/** Draw the orders `lines` on `svg` as previews (the server draws the real ones once saved). */
function drawPreview(svg, layer, lines, known, spot) {
  layer.textContent = "";
  const {ink, casing} = PREVIEW;
  for (const line of lines) {
    const words = line.toUpperCase().split(/\s+/);
    const pts = placesOf(line, known).map(spot).filter((p) => p);
    if (!pts.length) continue;
    const g = el("g", {"class": "preview", "data-order": line});
    const has = (w) => words.includes(w);
    const [a, b, c] = pts;
    const style = {"stroke": ink, "fill": "none", "stroke-width": "3.2", "stroke-linecap": "round"};
    const cased = {...style, "stroke": casing, "stroke-width": "6.4"};
    if ((has("S") || has("C")) && pts.length >= 2) {
      const end = pts.length >= 3 ? {x: (b.x + c.x) / 2, y: (b.y + c.y) / 2} : b;
      const ends = {x1: a.x, y1: a.y, x2: end.x, y2: end.y};
      g.appendChild(el("line", {...ends, ...cased}));
      g.appendChild(el("line", {...ends, ...style, "stroke-dasharray": has("C") ? "1 5" : "6 4"}));
      g.appendChild(el("circle", {cx: end.x, cy: end.y, r: 4.5, fill: ink, stroke: casing, "stroke-width": "1.6"}));
    } else if (pts.length >= 2) {
      const last = pts[pts.length - 1];
      const prev = pts[pts.length - 2];
      const dx = last.x - prev.x, dy = last.y - prev.y, d = Math.hypot(dx, dy) || 1;
      const ux = dx / d, uy = dy / d, s = 13;
      // the head ends short of the place's centre, where its name is written
      const tip = {x: last.x - ux * 7, y: last.y - uy * 7};
      const bx = tip.x - ux * s, by = tip.y - uy * s;
      const path = "M" + [...pts.slice(0, -1), {x: bx, y: by}].map((p) => p.x + " " + p.y).join(" L");
      g.appendChild(el("path", {d: path, ...cased}));
      g.appendChild(el("path", {d: path, ...style}));
      g.appendChild(el("polygon", {points: `${tip.x},${tip.y} ${bx - uy * 7},${by + ux * 7} ${bx + uy * 7},${by - ux * 7}`,
        fill: ink, stroke: casing, "stroke-width": "1.6", "stroke-linejoin": "round"}));
    } else {
      g.appendChild(el("circle", {cx: a.x, cy: a.y, r: 15, ...cased}));
      g.appendChild(el("circle", {cx: a.x, cy: a.y, r: 15, ...style, "stroke-dasharray": has("D") ? "3 3" : ""}));
    }
    layer.appendChild(g);
  }
}

/** Wire the map `wrap` (holding the board's SVG) to the order box `box` (see orderbox.js). */
export function setupMapOrders(wrap, box, menu) {
  const svg = wrap.querySelector("svg");
  if (!svg) return;
  const spots = new Map();
  for (const e of svg.querySelectorAll("[data-place][data-x]")) {
    if (!spots.has(e.dataset.place)) spots.set(e.dataset.place, {x: +e.dataset.x, y: +e.dataset.y});
  }
  for (const e of svg.querySelectorAll("[data-place][data-depth-x]")) {
    spots.set(e.dataset.place + "-1", {x: +e.dataset.depthX, y: +e.dataset.depthY});
  }
  const known = new Set(spots.keys());
  const spot = (p) => spots.get(p);
  const layer = el("g", {id: "previews"});
  svg.appendChild(layer);
  const spotLayer = svg.querySelector("#spots") || svg;
  const drawn = new Set([...svg.querySelectorAll("[data-place]")].map((e) => e.dataset.place));

  // Places with no shape of their own (a sea's depths) get a small target once a legal order names them.
  function addSpots() {
    for (const e of entries()) {
      for (const p of e.places) {
        if (drawn.has(p) || !spots.has(p)) continue;
        const {x, y} = spots.get(p);
        const c = el("circle", {"class": "spot depth", cx: x, cy: y, r: 9, "data-place": p, "data-x": x, "data-y": y});
        c.appendChild(el("title", {})).textContent = p;
        spotLayer.appendChild(c);
        drawn.add(p);
      }
    }
  }
  let clicked = [];

  function entries() {
    const out = [];
    for (const [key, options] of Object.entries(box.legal())) {
      for (const order of options) out.push({key, order, places: placesOf(order, known)});
    }
    return out;
  }

  function mark(cands) {
    for (const e of svg.querySelectorAll(".chosen, .target")) e.classList.remove("chosen", "target");
    const next = new Set(cands.filter((c) => c.places.length > clicked.length).map((c) => c.places[clicked.length]));
    for (const e of svg.querySelectorAll("[data-place]")) {
      const p = e.dataset.place;
      if (clicked.length && sameSpot(clicked[0], p) && e.classList.contains("unit")) e.classList.add("chosen");
      else if (clicked.length && [...next].some((n) => sameSpot(p, n) || p === n)) e.classList.add("target");
    }
  }

  // Where the last tap (or unit button) was, in the viewport: the menu floats there, inside the screen.
  let anchor = null;

  function place() {
    if (!anchor || !menu.childElementCount) {
      menu.classList.remove("floating");
      menu.style.left = menu.style.top = "";
      return;
    }
    menu.classList.add("floating");
    const gap = 10, edge = 8;
    const w = menu.offsetWidth, h = menu.offsetHeight;
    const vw = document.documentElement.clientWidth, vh = window.innerHeight;
    const left = Math.min(Math.max(edge, anchor.x - w / 2), vw - w - edge);
    // The places that may be clicked next stay uncovered: the menu goes just below (or above) the finger
    // and those places together, when that fits in the screen; else right under (or over) the finger.
    let lo = anchor.y, hi = anchor.y;
    for (const e of svg.querySelectorAll(".target, .chosen")) {
      const r = e.getBoundingClientRect();
      if (r.height && r.bottom > 0 && r.top < vh) { lo = Math.min(lo, r.top); hi = Math.max(hi, r.bottom); }
    }
    let top;
    if (hi + gap + h <= vh - edge) top = hi + gap;
    else if (lo - gap - h >= edge) top = lo - gap - h;
    else if (anchor.y + gap + h <= vh - edge) top = anchor.y + gap;
    else top = Math.max(edge, anchor.y - gap - h);
    menu.style.left = Math.round(left) + "px";
    menu.style.top = Math.round(top) + "px";
  }

  function say(text, options) {
    menu.textContent = "";
    if (text) {
      const p = document.createElement("p");
      p.textContent = text;
      menu.appendChild(p);
    }
    for (const o of options || []) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "menu-order";
      b.textContent = o.order;
      b.addEventListener("click", () => choose(o));
      menu.appendChild(b);
    }
    if (clicked.length) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "menu-cancel";
      b.textContent = menu.dataset.cancel;
      b.addEventListener("click", reset);
      menu.appendChild(b);
    }
    place();
  }

  function reset() {
    clicked = [];
    mark([]);
    anchor = null;
    for (const b of unitBar.querySelectorAll("button")) b.setAttribute("aria-expanded", "false");
    say("", []);
  }

  function choose(o) {
    box.add(o.order, o.key);
    reset();
  }

  function clickPlace(place) {
    const trial = [...clicked, place];
    const cands = candidates(entries(), trial);
    if (!cands.length) {
      say(menu.dataset.none, []);
      if (!clicked.length) return;
      return;
    }
    clicked = trial;
    const complete = cands.filter((c) => c.places.length === clicked.length);
    if (complete.length === 1 && cands.length === 1) return choose(complete[0]);
    mark(cands);
    if (complete.length) say(menu.dataset.pick, complete);
    else say(menu.dataset.next, []);
  }

  svg.addEventListener("click", function (ev) {
    if (wrap.dataset.dragged === "1") return;
    const target = ev.target.closest("[data-place]");
    if (!target || target.dataset.build) return;
    anchor = {x: ev.clientX, y: ev.clientY, scrollY: window.scrollY};
    clickPlace(target.dataset.place);
  });
  document.addEventListener("keydown", (ev) => { if (ev.key === "Escape" && (clicked.length || menu.childElementCount)) reset(); });
  // scrolling moves the page under a floating menu: it goes back to its place in the order column
  // (a scroll event of a scroll made before the tap, arriving late, moves nothing and changes nothing)
  window.addEventListener("scroll", () => {
    if (anchor && Math.abs(window.scrollY - anchor.scrollY) > 24) { anchor = null; place(); }
  }, {passive: true});

  // Your units (and other things you order: build places, spies…) as large buttons under the map: each
  // opens its legal orders, so a small province needs no precise tap.
  const unitBar = document.createElement("div");
  unitBar.className = "unit-buttons";
  unitBar.id = "unit-buttons";
  unitBar.setAttribute("role", "group");
  if (menu.dataset.units) unitBar.setAttribute("aria-label", menu.dataset.units);
  (wrap.closest(".map-frame") || wrap).after(unitBar);
  let barKeys = "";

  function unitLabel(key, options) {
    const words = (options[0] || key).split(/\s+/);
    const at = words.findIndex((w) => sameSpot(key, w.toUpperCase()) || sameSpot(w.toUpperCase(), key));
    return at >= 0 ? words.slice(0, at + 1).join(" ") : key;
  }

  function openUnit(key, button) {
    const options = (box.legal()[key] || []).map((order) => ({key, order, places: placesOf(order, known)}));
    const first = options.find((o) => o.places.length);
    reset();
    const r = button.getBoundingClientRect();
    anchor = {x: r.left + r.width / 2, y: r.bottom, scrollY: window.scrollY};
    button.setAttribute("aria-expanded", "true");
    if (first) {
      clicked = [first.places[0]];
      mark(candidates(entries(), clicked));
    }
    say(menu.dataset.pick, options);
  }

  function buildUnitBar() {
    const legal = box.legal();
    const keys = Object.keys(legal);
    if (keys.join(" ") === barKeys) return;
    barKeys = keys.join(" ");
    unitBar.textContent = "";
    for (const key of keys) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "unit-button";
      b.dataset.key = key;
      b.setAttribute("aria-expanded", "false");
      b.textContent = unitLabel(key, legal[key]);
      b.addEventListener("click", () => openUnit(key, b));
      unitBar.appendChild(b);
    }
  }

  box.onChange((lines) => { addSpots(); buildUnitBar(); drawPreview(svg, layer, lines, known, spot); });
  buildUnitBar();
  addSpots();
  drawPreview(svg, layer, box.lines(), known, spot);
}
