// The board of the game page is fetched from its own address (data-src: the reader's map, cached by the
// browser: an address carrying the map's tag never names another picture) and put in the page, so that
// its places can be clicked (mapclick.js) and zoomed (board.js). The page itself stays small.

const loading = new WeakMap();

/** The map `wrap` (a `.map[data-fetch]`) with its SVG in place: a promise of the <svg> (null if none). */
export function loadMap(wrap) {
  if (!wrap) return Promise.resolve(null);
  const here = wrap.querySelector("svg");
  if (here || !wrap.dataset.fetch) return Promise.resolve(here);
  if (loading.has(wrap)) return loading.get(wrap);
  const job = fetch(wrap.dataset.src, {credentials: "same-origin", headers: {"Accept": "image/svg+xml"}})
    .then((res) => (res.ok ? res.text() : Promise.reject(new Error(String(res.status)))))
    .then((text) => {
      const doc = new DOMParser().parseFromString(text, "image/svg+xml");
      const svg = doc.documentElement;
      if (!svg || svg.nodeName !== "svg") return null;
      // the map's layers whose ids the page also uses get their own names (map-units, map-legend, …)
      for (const name of (wrap.dataset.ids || "").split(" ").filter((n) => n)) {
        const layer = svg.querySelector(`g[id="${name}"]`);
        if (layer) layer.id = "map-" + name;
      }
      const node = document.importNode(svg, true);
      wrap.replaceChildren(node);
      wrap.removeAttribute("aria-busy");
      return node;
    })
    .catch(() => {
      wrap.removeAttribute("aria-busy");
      wrap.classList.add("map-failed");
      return null;
    });
  loading.set(wrap, job);
  return job;
}
