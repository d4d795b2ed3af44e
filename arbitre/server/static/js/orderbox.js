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

/** `text` with each {name} replaced by values[name]. */
function fill(text, values) {
  let out = text || "";
  for (const name in values) out = out.split("{" + name + "}").join(String(values[name]));
  return out;
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

  const todo = form.querySelector("#to-do");
  const todoList = form.querySelector("#to-do-list");

  /** Redraw what is still to do from the server's `to_do` answer (see arbitre/server/todo.py). */
  function showToDo(t) {
    if (!t || !todo || !todoList) return;
    let text = "";
    if (t.builds) text = fill(todo.dataset.builds, t.builds);
    else if (t.disbands) text = fill(todo.dataset.disbands, t.disbands);
    else if (t.missing && t.missing.length) text = fill(todo.dataset.missing, {units: t.missing.join(", ")});
    else if (!t.one_change) text = todo.dataset.complete;
    todoList.textContent = text;
    todoList.dataset.complete = t.complete ? "1" : "";
  }

  function show(errors, t) {
    out.textContent = "";
    showToDo(t);
    if (!errors.length) {
      const p = document.createElement("p");
      // every line valid: "all valid" only when nothing is left to do; what is left (the units without an
      // order, the builds owed) is named once, by the to-do line redrawn above, not repeated here
      p.className = "ok"; // no line is invalid
      p.textContent = t && !t.complete ? out.dataset.okSoFar : out.dataset.ok;
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
      if (res.ok) show(data.errors, data.to_do); else out.textContent = data.error ? data.error.message : res.statusText;
    } catch (err) {
      out.textContent = String(err);
    }
  }

  // ------------------------------------------------------------- the draft
  // Every change is saved on the server as a draft (never adjudicated) 300 ms after the last keystroke or
  // click, and at once when the page is left; leaving warns only while a change is not saved yet.
  const status = form.querySelector("#draft-status");
  const draftUrl = "/api/games/" + form.dataset.game + "/draft";
  let saved = box.value;
  let saving = null;
  let draftTimer = null;
  let leaving = false;

  function setStatus(state, extra) {
    if (!status) return;
    status.dataset.state = state;
    const word = {saving: "tSaving", draft: "tDraft", submitted: "tSubmitted", empty: "tEmpty", unsaved: "tUnsaved"}[state];
    status.textContent = (form.dataset[word] || "") + (extra ? " " + extra : "");
  }

  function draftBody(text) {
    return JSON.stringify({orders: text.split("\n"), phase: form.dataset.phase, step: form.dataset.step});
  }

  function saveDraft(keepalive) {
    clearTimeout(draftTimer);
    const text = box.value;
    if (text === saved) return Promise.resolve();
    setStatus("saving");
    const request = fetch(draftUrl, {
      method: "PUT",
      credentials: "same-origin",
      keepalive: !!keepalive,
      headers: {"Content-Type": "application/json", "X-CSRF-Token": form.dataset.csrf},
      body: draftBody(text),
    }).then(async (res) => {
      const data = await res.json().catch(() => ({}));
      if (!res.ok) { setStatus("unsaved", data.error ? data.error.message : res.statusText); return; }
      saved = text;
      if (box.value === saved) setStatus("draft");
    }).catch((err) => setStatus("unsaved", String(err)));
    saving = request;
    return request;
  }

  function unsaved() { return form.isConnected && !leaving && box.value !== saved; }

  window.addEventListener("beforeunload", function (ev) {
    if (!unsaved()) return;
    ev.preventDefault();
    ev.returnValue = form.dataset.tLeave || "";
    return form.dataset.tLeave;
  });
  window.addEventListener("pagehide", function () { if (unsaved()) saveDraft(true); });
  // "I am ready" submits the orders the box shows with the switch (never the switch alone over older orders)
  const readyBox = form.querySelector("#ready");
  let readyRequest = null;
  if (readyBox) readyBox.addEventListener("change", function () {
    clearTimeout(draftTimer);
    const text = box.value;
    setStatus("saving");
    readyRequest = fetch("/api/games/" + form.dataset.game + "/orders", {
      method: "PUT",
      credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRF-Token": form.dataset.csrf},
      body: JSON.stringify({orders: text.split("\n"), ready: readyBox.checked, phase: form.dataset.phase}),
    }).then(async (res) => {
      const data = await res.json().catch(() => ({}));
      if (!res.ok) { setStatus("unsaved", data.error ? data.error.message : res.statusText); return null; }
      saved = text;
      if (box.value === saved) setStatus("submitted");
      return data;
    }).catch((err) => { setStatus("unsaved", String(err)); return null; });
  });
  form.addEventListener("submit", function (ev) {
    leaving = true;
    clearTimeout(draftTimer);
    if (!readyRequest) return;
    // the switch's submission is on its way: wait for it, then submit the box unless it closed the phase
    ev.preventDefault();
    const pending = readyRequest;
    readyRequest = null;
    pending.then((data) => {
      if (data && data.processed) window.location.assign("/games/" + form.dataset.game + "?note=processed");
      else form.submit();
    });
  });

  function changed() {
    clearTimeout(timer);
    out.textContent = out.dataset.checking;
    timer = setTimeout(check, 250);
    clearTimeout(draftTimer);
    if (box.value !== saved) draftTimer = setTimeout(() => saveDraft(false), 300);
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
  check();
  return {
    add,
    saveDraft,
    saving: () => saving,
    legal: () => legal,
    lines: () => linesOf(box.value),
    onChange(fn) { listeners.push(fn); },
  };
}
