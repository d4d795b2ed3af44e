// Irreversible actions ask first: a button with data-confirm="question" submits only when confirmed.
export function setupConfirm(root) {
  for (const b of root.querySelectorAll("button[data-confirm]")) {
    b.addEventListener("click", (ev) => { if (!window.confirm(b.dataset.confirm)) ev.preventDefault(); });
  }
}
