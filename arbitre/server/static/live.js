// Live game pages: listen to the game's event stream (GET /api/games/{id}/events) and update the page
// without reloading it. A processed phase or a new step swaps the page's <main> for a fresh copy (and runs
// its scripts again); a deadline, pause, ready switch or a power's orders state ("given") swaps only the small
// live regions; a new message is added to the message list, or announced; a vote opened, cast or decided swaps
// the votes page's list (other pages announce it). After each swap the document gets an "arbitre:updated" event.
(function () {
  "use strict";
  const hook = document.getElementById("live");
  if (!hook || window.arbitreLive || !window.EventSource || !window.fetch) return;
  window.arbitreLive = true;

  const FULL = ["phase", "step", "started", "finished"];
  const LIGHT = ["paused", "resumed", "deadline", "ready", "given"];
  const VOTES = ["vote_opened", "vote_cast", "vote_decided"]; // the votes page swaps its [data-live] list
  const REGIONS = [".summary", "#all-orders", "#roster", "[data-live]"];
  const SELF = "/static/live.js";
  let busy = false;
  let pending = null; // null, "light" or "full"
  let reruns = 0;

  const note = document.createElement("p");
  note.id = "live-note";
  note.className = "note live-note";
  note.setAttribute("role", "status");
  note.setAttribute("aria-live", "polite");
  note.hidden = true;
  const main = document.querySelector("main");
  main.parentNode.insertBefore(note, main);

  function say(text, href) {
    note.textContent = "";
    if (href) {
      const a = document.createElement("a");
      a.href = href;
      a.textContent = text;
      note.appendChild(a);
    } else {
      note.textContent = text;
    }
    note.hidden = false;
  }

  const names = JSON.parse(hook.dataset.words || "{}");
  const powerName = (who) => who === "MASTER" ? hook.dataset.tMaster : ((names.powers || {})[who] || who);

  // "F1901M" → "Fall 1901, movement" in the page's language (other names as they are)
  function phaseName(code) {
    const w = names.phases || {};
    const m = /^([SFW])(\d+)([MRA])$/.exec(code || "");
    if (!m || !w.format) return code;
    return w.format.split("{season}").join(w[m[1]]).split("{year}").join(m[2]).split("{kind}").join(w[m[3]]);
  }

  function words(key, values) {
    let text = hook.dataset[key] || "";
    for (const name in values) text = text.split("{" + name + "}").join(values[name]);
    return text;
  }

  function pageUrl() {
    const url = new URL(window.location.href);
    url.searchParams.delete("note");
    url.hash = "";
    return url.toString();
  }

  function rerunScripts(root) {
    reruns += 1;
    for (const old of root.querySelectorAll("script[src]")) {
      const src = old.getAttribute("src");
      if (src.split("?")[0] === SELF) continue;
      const script = document.createElement("script");
      for (const attr of old.attributes) script.setAttribute(attr.name, attr.value);
      if (old.type === "module") script.src = src + (src.includes("?") ? "&" : "?") + "live=" + reruns;
      old.replaceWith(script);
    }
  }

  function swap(doc, full) {
    const fresh = doc.querySelector("main");
    if (!fresh) return;
    if (full) {
      const current = document.querySelector("main");
      const scrollY = window.scrollY;
      current.replaceChildren(...Array.from(fresh.childNodes, (n) => document.importNode(n, true)));
      if (doc.title) document.title = doc.title;
      rerunScripts(current);
      window.scrollTo(0, scrollY);
    } else {
      for (const selector of REGIONS) {
        const olds = document.querySelectorAll("main " + selector);
        const news = fresh.querySelectorAll(selector);
        if (olds.length !== news.length) continue;
        olds.forEach((old, i) => {
          if (old.contains(document.activeElement) && document.activeElement !== document.body) return;
          old.replaceWith(document.importNode(news[i], true));
        });
      }
    }
    document.dispatchEvent(new CustomEvent("arbitre:updated", {detail: {full: full}}));
  }

  async function refresh(kind) {
    if (busy) {
      pending = pending === "full" || kind === "full" ? "full" : "light";
      return;
    }
    busy = true;
    try {
      const res = await fetch(pageUrl(), {credentials: "same-origin", headers: {"Accept": "text/html"}});
      if (res.ok) swap(new DOMParser().parseFromString(await res.text(), "text/html"), kind === "full");
    } catch (err) {
      // the stream will tell us again; nothing to do
    } finally {
      busy = false;
      if (pending) {
        const next = pending;
        pending = null;
        refresh(next);
      }
    }
  }

  function partyNames(parties, you) {
    return parties.filter((p) => p !== you).map(powerName).join(", ");
  }

  // the messages page: the conversation's unread count goes up, or (when it is the one open) it is marked
  // read on the server; a conversation not listed yet is added below public press
  function countUnread(m) {
    const list = document.getElementById("conversations");
    const thread = document.getElementById("thread");
    if (!list || m.from === list.dataset.you) return; // your own words are read
    if (thread && thread.dataset.conversation === m.conversation) {
      fetch(list.dataset.read, {method: "POST", credentials: "same-origin", headers: {
        "Content-Type": "application/json", "X-CSRF-Token": list.dataset.csrf}, body: JSON.stringify(
        {conversation: m.conversation})}).catch(function () {});
      return;
    }
    let item = Array.from(list.children).find((li) => li.dataset.conversation === m.conversation);
    if (!item) {
      item = document.createElement("li");
      item.dataset.conversation = m.conversation;
      const a = document.createElement("a");
      a.href = "?c=" + encodeURIComponent(m.conversation).replace(/%2C/g, ",");
      const parties = m.conversation === "*" ? null : m.conversation.split(",");
      a.textContent = parties ? partyNames(parties, list.dataset.you) : list.dataset.tPublic;
      const badge = document.createElement("span");
      badge.className = "unread";
      badge.dataset.unread = "0";
      item.append(a, " ", badge);
      const pub = Array.from(list.children).find((li) => li.dataset.conversation === "*");
      if (pub) pub.after(item); else list.append(item);
    }
    const badge = item.querySelector(".unread");
    const n = (+badge.dataset.unread || 0) + 1;
    badge.dataset.unread = String(n);
    badge.textContent = String(n);
    badge.hidden = false;
  }

  // the header's total of unread messages: one more for a message of others, unless the messages page shows
  // its conversation (then it is marked read at once)
  function countInHeader(m) {
    const badge = document.getElementById("messages-unread");
    const thread = document.getElementById("thread");
    if (!badge || m.from === hook.dataset.you) return;
    if (thread && thread.dataset.conversation === m.conversation) return;
    const n = (+badge.dataset.unread || 0) + 1;
    badge.dataset.unread = String(n);
    badge.querySelector(".count").textContent = String(n);
    badge.hidden = false;
  }

  function onMessage(m) {
    countInHeader(m);
    const list = document.getElementById("messages");
    const form = document.getElementById("message-form");
    const thread = document.getElementById("thread");
    if (list || form || thread) { // the messages page: add it on top, as the page lists them (newest first)
      countUnread(m);
      const open = thread ? thread.dataset.conversation : "";
      if (open && open !== m.conversation) return; // another conversation: only its count moves
      let ul = list;
      if (!ul) {
        ul = document.createElement("ul");
        ul.id = "messages";
        ul.className = "messages";
        const none = document.getElementById("no-messages");
        if (none) none.replaceWith(ul); else if (form) form.after(ul); else thread.append(ul);
      }
      const li = document.createElement("li");
      li.className = "live-new";
      li.dataset.conversation = m.conversation;
      const meta = document.createElement("span");
      meta.className = "meta";
      const to = m.to.length === 1 && m.to[0] === "*" ? hook.dataset.tEveryone : m.to.map(powerName).join(", ");
      meta.textContent = phaseName(m.phase) + " · " + powerName(m.from) + " → " + to;
      li.append(meta, " " + m.body);
      ul.prepend(li);
    } else {
      say(words("tMessage", {sender: powerName(m.from)}), hook.dataset.messages);
    }
  }

  const source = new EventSource(hook.dataset.events + (hook.dataset.since
    ? "?since=" + encodeURIComponent(hook.dataset.since) : ""));
  for (const kind of FULL) {
    source.addEventListener(kind, function (e) {
      const data = JSON.parse(e.data);
      say(words(kind === "phase" ? "tPhase" : "tUpdated", {phase: phaseName(data.phase)}));
      refresh("full");
    });
  }
  for (const kind of LIGHT) {
    source.addEventListener(kind, function (e) {
      const data = JSON.parse(e.data);
      if (kind === "ready" && data.power === hook.dataset.power) {
        const box = document.getElementById("ready");
        if (box) box.checked = data.ready;
      }
      if (kind === "paused" || kind === "resumed") say(words(kind === "paused" ? "tPaused" : "tResumed", {}));
      refresh("light");
    });
  }
  for (const kind of VOTES) {
    source.addEventListener(kind, function () {
      if (!document.getElementById("votes-part")) say(words("tVote", {}), hook.dataset.votes);
      refresh("light");
    });
  }
  source.addEventListener("message", function (e) { onMessage(JSON.parse(e.data)); });
  source.addEventListener("open", function () { hook.dataset.state = "open"; });
  source.addEventListener("error", function () { hook.dataset.state = "retrying"; });
})();
