// The board on screen: the "last phase" / "now" switch, and panning and zooming the map
// (buttons, pinch with two fingers, drag with one finger or the mouse once zoomed in).

/** Show one pane of the switch and remember the choice for this game step (per browser tab). */
export function setupSwitch(bar) {
  const buttons = [...bar.querySelectorAll("button[data-pane]")];
  const storeKey = "arbitre-pane-" + bar.dataset.key;
  function show(name) {
    for (const b of buttons) {
      const on = b.dataset.pane === name;
      b.setAttribute("aria-pressed", on ? "true" : "false");
      const pane = document.getElementById(b.dataset.pane);
      if (pane) pane.hidden = !on;
    }
    try { sessionStorage.setItem(storeKey, name); } catch (e) { /* storage may be off */ }
  }
  for (const b of buttons) b.addEventListener("click", () => show(b.dataset.pane));
  let start = "last";
  try { start = sessionStorage.getItem(storeKey) || "last"; } catch (e) { /* default */ }
  show(start);
}

/** Pan and zoom an inline SVG map inside `frame` by changing its viewBox. */
export function setupZoom(frame) {
  const wrap = frame.querySelector(".map");
  const svg = wrap && wrap.querySelector("svg");
  if (!svg) return;
  const full = svg.viewBox.baseVal;
  const W = full.width, H = full.height;
  let box = {x: 0, y: 0, w: W, h: H};
  const pointers = new Map();
  let last = null;

  function apply() {
    box.w = Math.min(W, Math.max(W / 8, box.w));
    box.h = box.w * H / W;
    box.x = Math.min(W - box.w, Math.max(0, box.x));
    box.y = Math.min(H - box.h, Math.max(0, box.y));
    svg.setAttribute("viewBox", `${box.x} ${box.y} ${box.w} ${box.h}`);
    wrap.classList.toggle("zoomed", box.w < W - 1);
  }
  function zoom(f, cx, cy) {
    const px = cx === undefined ? box.x + box.w / 2 : cx;
    const py = cy === undefined ? box.y + box.h / 2 : cy;
    const nw = box.w / f;
    box = {x: px - (px - box.x) * nw / box.w, y: py - (py - box.y) * nw / box.w, w: nw, h: nw * H / W};
    apply();
  }
  function toMap(ev) {
    const r = svg.getBoundingClientRect();
    return {x: box.x + (ev.clientX - r.left) / r.width * box.w, y: box.y + (ev.clientY - r.top) / r.height * box.h};
  }
  frame.querySelector(".zoom-in").addEventListener("click", () => zoom(1.5));
  frame.querySelector(".zoom-out").addEventListener("click", () => zoom(1 / 1.5));
  frame.querySelector(".zoom-reset").addEventListener("click", () => { box = {x: 0, y: 0, w: W, h: H}; apply(); });

  svg.addEventListener("pointerdown", (ev) => {
    pointers.set(ev.pointerId, {x: ev.clientX, y: ev.clientY});
    wrap.dataset.dragged = "";
    last = null;
  });
  svg.addEventListener("pointermove", (ev) => {
    if (!pointers.has(ev.pointerId)) return;
    const before = pointers.get(ev.pointerId);
    pointers.set(ev.pointerId, {x: ev.clientX, y: ev.clientY});
    const r = svg.getBoundingClientRect();
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      const d = Math.hypot(a.x - b.x, a.y - b.y);
      if (last) {
        const mid = toMap({clientX: (a.x + b.x) / 2, clientY: (a.y + b.y) / 2});
        zoom(d / last, mid.x, mid.y);
      }
      last = d;
      wrap.dataset.dragged = "1";
    } else if (pointers.size === 1 && box.w < W - 1) {
      const dx = ev.clientX - before.x, dy = ev.clientY - before.y;
      if (Math.abs(dx) + Math.abs(dy) > 0) {
        box.x -= dx / r.width * box.w;
        box.y -= dy / r.height * box.h;
        apply();
        if (Math.abs(dx) + Math.abs(dy) > 2) wrap.dataset.dragged = "1";
      }
    }
  });
  const up = (ev) => { pointers.delete(ev.pointerId); last = null; };
  svg.addEventListener("pointerup", up);
  svg.addEventListener("pointercancel", up);
  svg.addEventListener("click", () => { setTimeout(() => { wrap.dataset.dragged = ""; }, 0); }, true);
}
