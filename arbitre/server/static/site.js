// Every page's script (an ES module, same origin, no build): each part acts only where its elements are.
import {setupClock} from "./js/clock.js";
import {setupConfirm} from "./js/confirm.js";
import {setupSwitch, setupZoom} from "./js/board.js";
import {setupOrderBox} from "./js/orderbox.js";
import {setupMapOrders} from "./js/mapclick.js";
import {setupHistoryKeys} from "./js/history.js";

const clock = document.getElementById("clock");
if (clock) setupClock(clock);
setupConfirm(document);
const bar = document.getElementById("board-switch");
if (bar) setupSwitch(bar);
for (const frame of document.querySelectorAll(".map-frame")) setupZoom(frame);
const form = document.getElementById("orders-form");
if (form) {
  const box = setupOrderBox(form);
  const wrap = document.querySelector(".map.live");
  const menu = document.getElementById("map-menu");
  if (wrap && menu) setupMapOrders(wrap, box, menu);
}
setupHistoryKeys(document);
