// The page's calls to the server: JSON POSTs with the CSRF token, errors as ApiError.

let csrf = null;

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message || code || `HTTP ${status}`);
    this.status = status;
    this.code = code || 'ERROR';
  }
}

/** Fetches GET /api/ui/me; remembers the CSRF token. Throws ApiError 401 when not signed in. */
export async function me() {
  const response = await fetch('/api/ui/me', { credentials: 'same-origin', headers: { accept: 'application/json' } });
  const body = await read(response);
  csrf = body.csrf;
  return body;
}

/** POSTs `body` as JSON to `path` and returns the result (the `result` member when there is one). */
export async function post(path, body = {}) {
  const response = await fetch(path, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', accept: 'application/json', 'x-cortex-csrf': csrf || '' },
    body: JSON.stringify(body),
  });
  return read(response);
}

async function read(response) {
  const text = await response.text();
  let body = null;
  // Streaming answers (one JSON object a line) end with the result line.
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  try {
    body = lines.length > 1 ? JSON.parse(lines[lines.length - 1]) : JSON.parse(text || '{}');
  } catch (e) {
    throw new ApiError(response.status, 'BAD_ANSWER', 'The server sent an answer the page cannot read.');
  }
  if (!response.ok || (body && body.error)) {
    const error = (body && body.error) || {};
    if (response.status === 401) signedOut();
    throw new ApiError(response.status, error.code, error.message);
  }
  return body && Object.prototype.hasOwnProperty.call(body, 'result') ? body.result : body;
}

const listeners = new Set();

/** Calls `fn` when a call finds the cookie session gone. */
export function onSignedOut(fn) {
  listeners.add(fn);
}

function signedOut() {
  listeners.forEach((fn) => fn());
}

/** The URL of a file of a session's outputs. */
export function fileUrl(session, fileId) {
  return `/api/web/files/${encodeURIComponent(session)}/${encodeURIComponent(fileId)}`;
}

export function viewUrl(session, attachmentId) {
  return `/api/web/views/${encodeURIComponent(session)}/${encodeURIComponent(attachmentId)}`;
}
