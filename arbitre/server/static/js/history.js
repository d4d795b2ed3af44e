// History: the left and right arrow keys step to the previous and next phase (not while typing).
export function setupHistoryKeys(doc) {
  doc.addEventListener("keydown", (ev) => {
    const t = ev.target;
    if (ev.altKey || ev.ctrlKey || ev.metaKey || (t && /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    const link = ev.key === "ArrowLeft" ? doc.getElementById("prev") : ev.key === "ArrowRight" ? doc.getElementById("next") : null;
    if (link) link.click();
  });
}
