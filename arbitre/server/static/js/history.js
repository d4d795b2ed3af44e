// History: the left and right arrow keys step to the previous and next phase (not while typing).
export function setupHistoryKeys(doc) {
  const prev = doc.getElementById("prev");
  const next = doc.getElementById("next");
  if (!prev && !next) return;
  doc.addEventListener("keydown", (ev) => {
    const t = ev.target;
    if (ev.altKey || ev.ctrlKey || ev.metaKey || (t && /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    if (ev.key === "ArrowLeft" && prev) prev.click();
    if (ev.key === "ArrowRight" && next) next.click();
  });
}
