// Light, dark, or the system's choice (prefers-color-scheme); the choice is kept in localStorage.
const KEY = 'cortex.theme';
const ORDER = ['system', 'light', 'dark'];

export function currentTheme() {
  const saved = safeGet();
  return ORDER.includes(saved) ? saved : 'system';
}

export function applyTheme(theme = currentTheme()) {
  const root = document.documentElement;
  if (theme === 'system') root.removeAttribute('data-theme');
  else root.setAttribute('data-theme', theme);
}

/** Moves to the next theme, saves it and returns it. */
export function nextTheme() {
  const next = ORDER[(ORDER.indexOf(currentTheme()) + 1) % ORDER.length];
  try {
    localStorage.setItem(KEY, next);
  } catch (e) {
    // storage may be off; the choice then lasts for this page only
  }
  applyTheme(next);
  return next;
}

function safeGet() {
  try {
    return localStorage.getItem(KEY);
  } catch (e) {
    return null;
  }
}
