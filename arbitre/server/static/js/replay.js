// The replay on the History page: the reader's own map of every played phase, one after the other.
// Each frame is the map the server draws for this reader (/games/{id}/history/{n}/map.svg), fetched only
// when it is shown (one phase at a time; the browser keeps each and revalidates it by its ETag).

/** Wire the replay box `root` (data-frames: the frames' addresses, data-names: the phases). */
export function setupReplay(root) {
  const frames = JSON.parse(root.dataset.frames || "[]");
  const names = JSON.parse(root.dataset.names || "[]");
  if (!frames.length) return;
  const img = root.querySelector("img");
  const slider = root.querySelector("input[type=range]");
  const play = root.querySelector(".replay-play");
  const label = root.querySelector(".replay-phase");
  let at = 0;
  let timer = null;

  function show(i) {
    at = Math.max(0, Math.min(frames.length - 1, i));
    img.src = frames[at];
    img.alt = names[at] || "";
    slider.value = String(at);
    label.textContent = names[at] || "";
  }
  function stop() {
    clearInterval(timer);
    timer = null;
    play.textContent = play.dataset.play;
    play.setAttribute("aria-pressed", "false");
  }
  play.addEventListener("click", () => {
    if (timer) return stop();
    if (at >= frames.length - 1) show(0);
    play.textContent = play.dataset.pause;
    play.setAttribute("aria-pressed", "true");
    timer = setInterval(() => { if (at >= frames.length - 1) stop(); else show(at + 1); }, 1400);
  });
  slider.max = String(frames.length - 1);
  slider.addEventListener("input", () => { stop(); show(+slider.value); });
  show(0);
}
