// Every page's script (an ES module, same origin, no build): each part acts only where its elements are.
// A live update that replaces the page's content (live.js, event "arbitre:updated") wires the new content.
import {setupClock} from "./js/clock.js";
import {setupConfirm} from "./js/confirm.js";
import {setupSwitch, setupZoom} from "./js/board.js";
import {setupOrderBox} from "./js/orderbox.js";
import {setupMapOrders} from "./js/mapclick.js";
import {loadMap} from "./js/mapfetch.js";
import {setupHistoryKeys} from "./js/history.js";
import {setupReplay} from "./js/replay.js";

/** Run `setup(el)` once per element (content kept across a live update is not wired twice). */
function once(el, name, setup) {
  if (!el) return;
  const done = (el.dataset.wired || "").split(" ");
  if (done.includes(name)) return;
  el.dataset.wired = [...done, name].join(" ").trim();
  setup(el);
}

function wire() {
  once(document.getElementById("clock"), "clock", setupClock);
  for (const b of document.querySelectorAll("button[data-confirm]")) once(b, "confirm", setupConfirm);
  once(document.getElementById("board-switch"), "switch", setupSwitch);
  // the board is fetched from its own address, then wired for zooming and ordering by clicks
  for (const frame of document.querySelectorAll(".map-frame")) {
    once(frame, "zoom", (f) => loadMap(f.querySelector(".map")).then(() => setupZoom(f)));
  }
  once(document.getElementById("orders-form"), "orders", (form) => {
    const box = setupOrderBox(form);
    const wrap = document.querySelector(".map.live");
    const menu = document.getElementById("map-menu");
    if (wrap && menu) loadMap(wrap).then(() => setupMapOrders(wrap, box, menu));
  });
  once(document.getElementById("replay"), "replay", setupReplay);
}

// a form's hidden time zone field gets the browser's zone (a new account's e-mails use the page's zone)
for (const input of document.querySelectorAll("input[data-browser-zone]")) {
  if (!input.value) input.value = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
}

setupHistoryKeys(document);
wire();
document.addEventListener("arbitre:updated", wire);
