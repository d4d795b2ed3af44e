// The deadline in the reader's own time zone, with a countdown; "paused, 3 h 12 min left" while paused.

/** "2 d 3 h", "3 h 12 min", "4 min 5 s" (the two largest units). */
export function duration(seconds, words) {
  const s = Math.max(0, Math.floor(seconds));
  const parts = [[Math.floor(s / 86400), words.d], [Math.floor(s / 3600) % 24, words.h],
                 [Math.floor(s / 60) % 60, words.min], [s % 60, words.s]];
  const first = parts.findIndex(([n]) => n > 0);
  if (first < 0) return "0 " + words.s;
  return parts.slice(first, first + 2).filter(([n]) => n > 0).map(([n, w]) => n + " " + w).join(" ");
}

/** Fill `el` (a <span id="clock"> with data-deadline or data-remaining) and keep it ticking. */
export function setupClock(el) {
  const words = {d: el.dataset.wd, h: el.dataset.wh, min: el.dataset.wmin, s: el.dataset.ws};
  const lang = document.documentElement.lang || undefined;
  if (el.dataset.remaining) {
    el.textContent = el.dataset.paused.replace("{left}", duration(+el.dataset.remaining, words));
    return;
  }
  if (!el.dataset.deadline) return;
  const when = new Date(el.dataset.deadline);
  // in the zone the reader chose on the account page (their e-mails use it too), else the device's
  const options = {weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit",
    timeZoneName: "short"};
  let abs;
  try {
    abs = new Intl.DateTimeFormat(lang, {...options, timeZone: el.dataset.zone || undefined}).format(when);
  } catch (err) { // a zone this browser does not know
    abs = new Intl.DateTimeFormat(lang, options).format(when);
  }
  const absEl = document.getElementById("deadline-local");
  if (absEl) absEl.textContent = abs;
  // count from the server's clock, not the device's (which may be off)
  const skew = el.dataset.now ? Date.now() - new Date(el.dataset.now).getTime() : 0;
  function tick() {
    const left = (when.getTime() - (Date.now() - skew)) / 1000;
    el.textContent = left > 0 ? el.dataset.left.replace("{left}", duration(left, words)) : el.dataset.due;
  }
  tick();
  setInterval(tick, 1000);
}
