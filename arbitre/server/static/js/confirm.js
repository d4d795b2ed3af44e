// Irreversible actions ask first: a button with data-confirm="question" submits only when confirmed.
export function setupConfirm(button) {
  button.addEventListener("click", (ev) => { if (!window.confirm(button.dataset.confirm)) ev.preventDefault(); });
}
