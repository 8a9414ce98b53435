// The viewer's API key, kept in this browser's localStorage so a reload (or a new tab) keeps it.
// Storage can be unavailable (a privacy mode, a sandboxed frame): the viewer then asks for the key
// again on each load rather than failing.
const STORAGE_KEY = "dialogql.apiKey";

export function loadSavedApiKey(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEY) || null;
  } catch {
    return null;
  }
}

export function saveApiKey(key: string) {
  try {
    window.localStorage.setItem(STORAGE_KEY, key);
  } catch {
    // Kept for this page only.
  }
}

export function forgetSavedApiKey() {
  try {
    window.localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Nothing was saved.
  }
}
