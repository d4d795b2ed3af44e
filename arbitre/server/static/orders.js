// Order form: check the orders as they are typed (the engine's messages) and add orders from the picker.
(function () {
  "use strict";
  const form = document.getElementById("orders-form");
  if (!form) return;
  const box = document.getElementById("orders");
  const out = document.getElementById("check");
  const url = "/api/games/" + form.dataset.game + "/check";
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
    const lines = box.value.split("\n");
    try {
      const res = await fetch(url, {
        method: "POST",
        credentials: "same-origin",
        headers: {"Content-Type": "application/json", "X-CSRF-Token": form.dataset.csrf},
        body: JSON.stringify({orders: lines}),
      });
      const data = await res.json();
      if (mine !== seq) return;
      if (res.ok) show(data.errors); else out.textContent = data.error ? data.error.message : res.statusText;
    } catch (err) {
      out.textContent = String(err);
    }
  }

  box.addEventListener("input", function () {
    clearTimeout(timer);
    out.textContent = out.dataset.checking;
    timer = setTimeout(check, 300);
  });

  const add = document.getElementById("pick-add");
  if (add) add.addEventListener("click", function () {
    for (const sel of document.querySelectorAll("select.pick")) {
      const order = sel.value;
      const unit = sel.dataset.unit;
      // one order per unit: replace the line already given to that unit
      const head = order.split(" ").slice(0, 2).join(" ").toUpperCase();
      const lines = box.value.split("\n").filter((l) => l.trim() && !l.trim().toUpperCase().startsWith(head + " ")
                                                   && l.trim().toUpperCase() !== head);
      if (sel.dataset.touched === "1" || unit) { lines.push(order); }
      box.value = lines.join("\n");
    }
    check();
  });
  if (box.value.trim()) check();
})();
