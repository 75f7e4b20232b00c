// photobook edit: the page, in four plain scripts (no framework, no modules) that index.html loads in this order,
// each deferred: editor-requests.js, editor-operations.js, editor-drawing.js, editor-actions.js. They are served
// under a strict CSP (no inline script or style: positions are set through element.style, which the CSP allows) and
// each is named with the token, which a module's imports would not be. This first one holds what they share, the
// one global `photobook`: the state the page shows, the queue of changes and the undo stacks, the small helpers
// for elements and numbers, the requests to the server and the status line. Each script wraps its own functions
// and puts on `photobook` those the others call; one calls a later script's function through `photobook`, as it
// exists once all four have run.
'use strict';

const photobook = {
  POLL_MS: 1000,
  token: null,
  state: null,          // the last state the server sent: what the page shows
  // The arrays are emptied in place, never replaced: the scripts keep them under their own names.
  queue: [],            // operations waiting for their turn
  undoStack: [],        // descriptions before each change
  redoStack: [],
  rendering: false,     // ignore blur/change of fields removed by a re-render
  statusError: null,
};

(() => {
  const { queue } = photobook;

  const $ = (selector, root = document) => root.querySelector(selector);
  const clone = (value) => JSON.parse(JSON.stringify(value));
  const pct = (value, whole) => `${(value / whole) * 100}%`;
  const round3 = (value) => Math.round(value * 1000) / 1000;
  const clamp = (value, lo, hi) => Math.min(hi, Math.max(lo, value));

  function el(tag, attributes = {}, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) {
      if (value === null || value === undefined || value === false) continue;
      if (name === 'class') node.className = value;
      else if (name === 'text') node.textContent = value;
      else node.setAttribute(name, value === true ? '' : String(value));
    }
    for (const child of children) if (child) node.append(child);
    return node;
  }

  // ---- requests --------------------------------------------------------------------------------------------

  async function api(method, url, body) {
    const headers = { Accept: 'application/json' };
    if (photobook.token) headers['X-Photobook-Token'] = photobook.token;
    const options = { method, credentials: 'same-origin', headers, cache: 'no-store' };
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      options.body = JSON.stringify(body);
    }
    const response = await fetch(url, options);
    let data = null;
    try { data = await response.json(); } catch (_) { data = null; }
    return { status: response.status, data };
  }

  // ---- the status line -------------------------------------------------------------------------------------

  function setStatus(text) {
    const node = $('[data-status]');
    const error = text.startsWith('error');
    node.textContent = text;
    node.title = text;
    node.dataset.kind = error ? 'error' : text;
    // The whole message, over the page (fixed: nothing below it moves), until the next save succeeds.
    const message = $('[data-message]');
    message.hidden = !error;
    message.textContent = error ? text.replace(/^error: /, '') : '';
  }

  function showSettled() {
    if (photobook.state && photobook.state.unreadable && !photobook.statusError) {
      setStatus(queue.length ? 'waiting: the file cannot be read now; your change is kept and saved when it can'
                             : 'waiting: the file cannot be read now');
      return;
    }
    setStatus(photobook.statusError ? `error: ${photobook.statusError}` : 'saved');
  }

  Object.assign(photobook, { $, clone, pct, round3, clamp, el, api, setStatus, showSettled });
})();
