// The order text box: the engine's live check, the picker, and the one place where orders are added
// (by the picker or the map). The legal orders come from the server; nothing here knows a rule.

/** Split the box into its non-empty lines. */
export function linesOf(text) {
  return text.split("\n").map((l) => l.trim()).filter((l) => l);
}

/** Normalise an order for comparison: upper case, single spaces. */
export function norm(order) {
  return order.trim().toUpperCase().replace(/\s+/g, " ");
}

/**
 * The box's lines once `order` (one of the legal list `legal[key]`) is added: the line already given
 * for the same key (the same unit, build place, spy…) is replaced; everything else stays as typed.
 * In a one-line step (a reaction), the order replaces the whole box.
 */
export function withOrder(lines, order, key, legal, oneLine) {
  if (oneLine) return [order];
  const keyOf = new Map();
  for (const [k, options] of Object.entries(legal)) for (const o of options) keyOf.set(norm(o), k);
  const ownKey = key || keyOf.get(norm(order));
  // a key that names no place (WAIVE) may be given several times: append
  const repeatable = ownKey && !/^[A-Z]{2,4}(\/[A-Z]{2})?(-\d)?$/.test(ownKey) && legal[ownKey] && legal[ownKey].length === 1;
  const kept = lines.filter((l) => repeatable || !ownKey || keyOf.get(norm(l)) !== ownKey);
  kept.push(order);
  return kept;
}

/** Wire the box of `form`: returns {add(order, key), onChange(fn), legal()} for the map. */
export function setupOrderBox(form) {
  const box = form.querySelector("#orders");
  const out = form.querySelector("#check");
  const url = "/api/games/" + form.dataset.game + "/check";
  const oneLine = form.dataset.oneLine === "1";
  const listeners = [];
  let legal = {};
  let timer = null;
  let seq = 0;

  function show(errors) {
    out.textContent = "";
    if (!errors.length) {
      const p = document.createElement("p");
      p.className = "ok";
      p.textContent = out.dataset.ok;
      out.appendChild(p);
      return;
    }
    const ul = document.createElement("ul");
    for (const e of errors) {
      const li = document.createElement("li");
      li.className = "bad";
      li.textContent = (e.line ? out.dataset.line + " " + e.line + ": " : "") + e.order + " — " + e.message;
      ul.appendChild(li);
    }
    out.appendChild(ul);
  }

  async function check() {
    const mine = ++seq;
    try {
      const res = await fetch(url, {
        method: "POST",
        credentials: "same-origin",
        headers: {"Content-Type": "application/json", "X-CSRF-Token": form.dataset.csrf},
        body: JSON.stringify({orders: box.value.split("\n")}),
      });
      const data = await res.json();
      if (mine !== seq) return;
      if (res.ok) show(data.errors); else out.textContent = data.error ? data.error.message : res.statusText;
    } catch (err) {
      out.textContent = String(err);
    }
  }

  function changed() {
    clearTimeout(timer);
    out.textContent = out.dataset.checking;
    timer = setTimeout(check, 250);
    for (const fn of listeners) fn(linesOf(box.value));
  }

  function add(order, key) {
    box.value = withOrder(linesOf(box.value), order, key, legal, oneLine).join("\n");
    changed();
  }

  box.addEventListener("input", changed);
  const pick = form.querySelector("#pick-order");
  if (pick) for (const opt of pick.querySelectorAll("option")) (legal[opt.dataset.key] ||= []).push(opt.value);
  const addButton = form.querySelector("#pick-add");
  if (pick && addButton) addButton.addEventListener("click", function () {
    const opt = pick.selectedOptions[0];
    if (opt) add(opt.value, opt.dataset.key);
  });
  fetch("/api/games/" + form.dataset.game + "/legal", {credentials: "same-origin"})
    .then((r) => (r.ok ? r.json() : {legal: {}}))
    .then((data) => { legal = data.legal || {}; for (const fn of listeners) fn(linesOf(box.value)); })
    .catch(() => {});
  if (box.value.trim()) check();
  return {
    add,
    legal: () => legal,
    lines: () => linesOf(box.value),
    onChange(fn) { listeners.push(fn); },
  };
}
