// photobook edit: the page. Plain JavaScript, no framework; served as /editor.js under a strict CSP (no inline
// script or style: positions are set through element.style, which the CSP allows).
//
// The server's state (docs/editor.md) is drawn as it is; every change the person makes is an OPERATION on the
// description (setCaption, move, setLayout, setFocus, remove, restore, lock, arrange, undo/redo) that is applied
// to the latest saved description and PUT with its revision, one at a time. On 409 the operation is applied again
// on top of the state the server returned, so that a change made outside and the person's change both survive.
'use strict';

(() => {
  const REASON_REMOVED = 'removed in the editor';
  const POLL_MS = 1000;
  const BUILD_POLL_MS = 500;
  const MAX_ATTEMPTS = 5;

  let token = null;
  let state = null;          // the last state the server sent: what the page shows
  const queue = [];          // operations waiting for their turn
  let busy = false;          // an operation is being saved
  let undoStack = [];        // descriptions before each change
  let redoStack = [];
  let lastPage = null;       // {source, first}: the page the person last focused, for "restore"
  let dragRef = null;        // the photo being dragged
  let rendering = false;     // ignore blur/change of fields removed by a re-render
  let statusError = null;
  let buildTimer = null;
  const images = new Map();  // src -> <img>, reused across renders so that nothing flickers

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
    if (token) headers['X-Photobook-Token'] = token;
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
    if (state && state.unreadable && !statusError) {
      setStatus(queue.length ? 'waiting: the file cannot be read now; your change is kept and saved when it can'
                             : 'waiting: the file cannot be read now');
      return;
    }
    setStatus(statusError ? `error: ${statusError}` : 'saved');
  }

  // ---- finding photos and pages in a description -----------------------------------------------------------

  // A photo is known by (page source index, slot) and its path; when the description changed meanwhile the path
  // finds it again (the occurrence nearest to where it was).
  function locate(desc, ref) {
    if (!ref) return null;
    const page = desc.pages[ref.source];
    if (page && page.photos[ref.slot] && page.photos[ref.slot].path === ref.path) {
      return { source: ref.source, slot: ref.slot };
    }
    let best = null;
    desc.pages.forEach((p, source) => p.photos.forEach((photo, slot) => {
      if (photo.path !== ref.path) return;
      const distance = Math.abs(source - ref.source) * 1000 + Math.abs(slot - ref.slot);
      if (!best || distance < best.distance) best = { source, slot, distance };
    }));
    return best && { source: best.source, slot: best.slot };
  }

  function pageRef(desc, source) {
    const page = desc.pages[source];
    return page ? { source, first: page.photos.length ? page.photos[0].path : null } : null;
  }

  function locatePage(desc, ref) {
    if (!ref) return null;
    const page = desc.pages[ref.source];
    if (page && (page.photos[0] || {}).path === ref.first) return ref.source;
    const found = desc.pages.findIndex((p) => (p.photos[0] || {}).path === ref.first);
    if (found >= 0) return found;
    return page ? ref.source : null;
  }

  function refAt(desc, where) {
    const photo = desc.pages[where.source].photos[where.slot];
    return { source: where.source, slot: where.slot, path: photo.path };
  }

  // Takes the photo at `from` out and puts it into page `toSource` at `toIndex` (clamped); a page whose count
  // changes loses its pinned layout, a page left empty goes. Returns the photo's new place.
  function movePhoto(desc, from, toSource, toIndex) {
    const pages = desc.pages;
    const fromPage = pages[from.source];
    const target = pages[toSource];
    const [photo] = fromPage.photos.splice(from.slot, 1);
    target.photos.splice(clamp(toIndex, 0, target.photos.length), 0, photo);
    if (target !== fromPage) {
      delete fromPage.layout;
      delete target.layout;
    }
    if (fromPage.photos.length === 0) pages.splice(pages.indexOf(fromPage), 1);
    return { source: pages.indexOf(target), slot: target.photos.indexOf(photo) };
  }

  // ---- operations ------------------------------------------------------------------------------------------
  // apply(desc) changes a copy of the latest description and returns true, or false when there is nothing to do
  // (the photo is gone); it may set this.focusRef, the photo to focus after the save.

  // A photo operation holds the photo's identity object (shared with its element until the next render) so that
  // a second key press before the first move is saved moves the photo from where the first one put it.
  function photoOp(ident, change) {
    return {
      ident,
      snapshot: null,
      apply(desc) {
        if (!this.snapshot) this.snapshot = { ...this.ident };
        const at = locate(desc, this.snapshot);
        if (!at) return false;
        const result = change.call(this, desc, at);
        if (result === false) return false;
        if (result && typeof result === 'object') {
          this.focusRef = refAt(desc, result);
          Object.assign(this.ident, this.focusRef);
        }
        return true;
      },
    };
  }

  const ops = {
    setCaption(ident, text) {
      return photoOp(ident, (desc, at) => {
        const photo = desc.pages[at.source].photos[at.slot];
        const value = text.trim();
        if ((photo.caption || '') === value) return false;
        if (value) photo.caption = value; else delete photo.caption;
        return true;
      });
    },
    setFocus(ident, point) {
      return photoOp(ident, (desc, at) => {
        desc.pages[at.source].photos[at.slot].focus = point;
        return at;
      });
    },
    // how: 'next' | 'prev' (one place in book order) | 'nextPage' | 'prevPage'
    step(ident, how) {
      return photoOp(ident, (desc, at) => {
        const pages = desc.pages;
        if (how === 'next' || how === 'prev') {
          const flat = [];
          pages.forEach((p, source) => p.photos.forEach((_, slot) => flat.push({ source, slot })));
          const i = flat.findIndex((w) => w.source === at.source && w.slot === at.slot);
          const j = how === 'next' ? i + 1 : i - 1;
          if (j < 0 || j >= flat.length) return false;
          const other = flat[j];
          // Swapping with the neighbour keeps every page's count (and so its pinned layout).
          const a = pages[at.source].photos[at.slot];
          pages[at.source].photos[at.slot] = pages[other.source].photos[other.slot];
          pages[other.source].photos[other.slot] = a;
          return other;
        }
        const alone = pages[at.source].photos.length === 1;
        if (how === 'nextPage') {
          if (at.source + 1 < pages.length) return movePhoto(desc, at, at.source + 1, 0);
          if (alone) return false;
          pages.push({ photos: [] });
          return movePhoto(desc, at, pages.length - 1, 0);
        }
        if (how === 'prevPage') {
          if (at.source > 0) return movePhoto(desc, at, at.source - 1, Infinity);
          if (alone) return false;
          pages.unshift({ photos: [] });
          return movePhoto(desc, { source: at.source + 1, slot: at.slot }, 0, 0);
        }
        return false;
      });
    },
    // Dropped onto another photo: it takes that photo's place.
    dropOnPhoto(ident, targetRef) {
      return photoOp(ident, (desc, at) => {
        const to = locate(desc, targetRef);
        if (!to || (to.source === at.source && to.slot === at.slot)) return false;
        return movePhoto(desc, at, to.source, to.slot);
      });
    },
    // Dropped onto a page: the page's end.
    dropOnPage(ident, targetPage) {
      return photoOp(ident, (desc, at) => {
        const source = locatePage(desc, targetPage);
        if (source === null) return false;
        if (source === at.source && at.slot === desc.pages[source].photos.length - 1) return false;
        return movePhoto(desc, at, source, Infinity);
      });
    },
    remove(ident) {
      return photoOp(ident, (desc, at) => {
        const page = desc.pages[at.source];
        const [photo] = page.photos.splice(at.slot, 1);
        delete page.layout;
        if (page.photos.length === 0) desc.pages.splice(at.source, 1);
        (desc['photosLeftOut'] = desc['photosLeftOut'] || []).push({ path: photo.path, reason: REASON_REMOVED });
        return true;
      });
    },
    restore(path, targetPage) {
      return {
        apply(desc) {
          const list = desc['photosLeftOut'] || [];
          const i = list.findIndex((item) => item.path === path);
          if (i < 0) return false;
          list.splice(i, 1);
          if (list.length === 0) delete desc['photosLeftOut'];
          let source = locatePage(desc, targetPage);
          if (source === null || source >= desc.pages.length) {
            desc.pages.push({ photos: [] });
            source = desc.pages.length - 1;
          }
          const page = desc.pages[source];
          page.photos.push({ path });
          delete page.layout;
          this.focusRef = { source, slot: page.photos.length - 1, path };
          return true;
        },
      };
    },
    setLayout(target, layout) {
      return {
        apply(desc) {
          const source = locatePage(desc, target);
          if (source === null) return false;
          const page = desc.pages[source];
          if ((page.layout || '') === layout) return false;
          if (layout) page.layout = layout; else delete page.layout;
          return true;
        },
      };
    },
    setLocked(target, locked) {
      return {
        apply(desc) {
          const source = locatePage(desc, target);
          if (source === null) return false;
          if (locked) desc.pages[source].locked = true; else delete desc.pages[source].locked;
          return true;
        },
      };
    },
    arrange() {
      return { url: '/api/arrange', method: 'POST', apply: () => true };
    },
    // Undo and redo send an earlier description as a normal save; when the file changed outside meanwhile the
    // stacks were emptied (an old description would undo that change too), so they do nothing.
    undo() {
      return {
        history: true,
        apply(desc) {
          if (!undoStack.length) return false;
          this.replacement = undoStack[undoStack.length - 1];
          this.base = clone(desc);
          return clone(this.replacement);
        },
        done() {
          undoStack.pop();
          redoStack.push(this.base);
        },
      };
    },
    redo() {
      return {
        history: true,
        apply(desc) {
          if (!redoStack.length) return false;
          this.replacement = redoStack[redoStack.length - 1];
          this.base = clone(desc);
          return clone(this.replacement);
        },
        done() {
          redoStack.pop();
          undoStack.push(this.base);
        },
      };
    },
  };

  function enqueue(op) {
    queue.push(op);
    if (state && state.unreadable) showSettled();   // kept until the file can be read again
    pump();
  }

  async function pump() {
    if (busy || !state || state.unreadable) return;
    busy = true;
    setStatus('saving');
    try {
      while (queue.length) {
        const op = queue.shift();
        if (await run(op) === 'wait') {
          queue.unshift(op);   // saved once the file can be read again (poll)
          break;
        }
      }
    } finally {
      busy = false;
      showSettled();
      updateHistoryButtons();
    }
  }

  async function run(op) {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const base = state.description;
      let desc = clone(base);
      const applied = op.apply(desc);
      if (applied === false) return;
      if (applied && typeof applied === 'object') desc = applied;
      let answer;
      try {
        answer = await api(op.method || 'PUT', op.url || '/api/book', { revision: state.revision, description: desc });
      } catch (error) {
        statusError = `photobook is not answering (${error.message})`;
        render();
        return;
      }
      if (answer.status === 200 && answer.data && answer.data.description) {
        if (op.history) op.done();
        else {
          undoStack.push(base);
          redoStack = [];
        }
        statusError = null;
        adopt(answer.data, op.focusRef);
        return;
      }
      if (answer.status === 409) {
        const current = answer.data && answer.data.description ? answer.data
          : answer.data && answer.data.state ? answer.data.state : await fetchBook();
        if (current) takeOutsideChange(current);
        if (current && current.unreadable) return 'wait';   // another program is writing the file
        continue;   // the same operation again, on top of the file as it is now
      }
      statusError = answer.status === 422 && answer.data && answer.data.error
        ? answer.data.error
        : `the save failed (HTTP ${answer.status}${answer.data && answer.data.error ? `: ${answer.data.error}` : ''})`;
      render();     // back to the last saved state
      return;
    }
    statusError = 'the file keeps changing outside: the change was not saved';
    render();
  }

  async function fetchBook() {
    try {
      const answer = await api('GET', '/api/book');
      return answer.status === 200 ? answer.data : null;
    } catch (_) {
      return null;
    }
  }

  function adopt(next, focusRef) {
    state = next;
    render(focusRef);
  }

  function takeOutsideChange(next) {
    undoStack = [];
    redoStack = [];
    adopt(next);
    updateHistoryButtons();
    if (!busy) showSettled();
  }

  // ---- polling for changes made outside --------------------------------------------------------------------

  async function poll() {
    try {
      if (state && !busy && !queue.length) {
        const answer = await api('GET', '/api/revision');
        if (answer.status === 200 && answer.data && answer.data.revision !== state.revision && !busy) {
          const next = await fetchBook();
          if (next && !busy && !queue.length && next.revision !== state.revision) takeOutsideChange(next);
        }
      } else if (state && state.unreadable && !busy && queue.length) {
        // Changes wait for the file: once another program has finished writing it, they go on top of its version.
        const next = await fetchBook();
        if (next && !next.unreadable) {
          takeOutsideChange(next);
          pump();
        }
      }
    } catch (_) {
      // the server is gone or busy: try again at the next tick
    } finally {
      setTimeout(poll, POLL_MS);
    }
  }

  // ---- drawing ---------------------------------------------------------------------------------------------

  // A picture's address with the token (an <img> cannot send a header).
  const withToken = (src) => `${src}${src.includes('?') ? '&' : '?'}token=${encodeURIComponent(token || '')}`;

  function image(src) {
    let img = images.get(src);
    if (!img || img.isConnected) {
      img = el('img', { src: withToken(src), alt: '', draggable: 'false', decoding: 'async' });
      if (!images.has(src)) images.set(src, img);
    }
    return img;
  }

  function placeBox(node, box, page) {
    node.style.left = pct(box[0], page.width);
    node.style.top = pct(box[1], page.height);
    node.style.width = pct(box[2], page.width);
    node.style.height = pct(box[3], page.height);
  }

  // Font sizes in points scale with the page's drawn width: cqw is 1% of the page element's width.
  const fontSize = (size, page) => `${(size / page.width) * 100}cqw`;

  function drawText(text, page) {
    const node = el('div', { class: `text role-${text.role}`, dir: 'auto', 'aria-hidden': 'true' });
    placeBox(node, text.box, page);
    node.style.fontSize = fontSize(text.size, page);
    if (text.leading) node.style.lineHeight = String(text.leading / text.size);
    node.style.textAlign = text.align === 'centre' ? 'center' : text.align || 'left';
    for (const line of text.lines || []) node.append(el('div', { class: 'line', text: line }));
    return node;
  }

  function drawPhoto(photo, page, place, descPhoto) {
    const ident = { source: page.source, slot: photo.slot, path: photo.path };
    const flags = [];
    if (photo.lowResolution) flags.push(`${Math.round(photo.dpi)} dpi`);
    if (photo.cutsFace) flags.push('face cut');
    const node = el('div', {
      class: `photo${photo.lowResolution ? ' low' : ''}${photo.cutsFace ? ' face' : ''}`,
      'data-photo': photo.path,
      'data-source': page.source,
      'data-slot': photo.slot,
      tabindex: 0,
      draggable: 'true',
      role: 'group',
      'aria-roledescription': 'photo',
      'aria-label': `photo ${photo.path}, page ${page.number}, place ${place}${flags.length ? `, ${flags.join(', ')}` : ''}`,
      title: `${photo.path}\nclick: centre the crop here; drag: move; Alt+arrows: move; Delete: leave out`,
    });
    node._ident = ident;
    placeBox(node, photo.cell, page);
    const [cx, cy, cw, ch] = photo.cell;
    const [ix, iy, iw, ih] = photo.image;
    const frame = el('div', { class: 'image' });
    frame.style.left = pct(ix - cx, cw);
    frame.style.top = pct(iy - cy, ch);
    frame.style.width = pct(iw, cw);
    frame.style.height = pct(ih, ch);
    const img = image(photo.src);
    // A render is the picture as drawn; a picture that is not yet cropped is cropped here as the crop says.
    const crop = photo.crop || [0, 0, 1, 1];
    img.style.objectPosition = `${crop[2] < 1 ? (crop[0] / (1 - crop[2])) * 100 : 50}% ${crop[3] < 1 ? (crop[1] / (1 - crop[3])) * 100 : 50}%`;
    frame.append(img);
    node.append(frame);
    if (photo.focus && crop) {
      const u = (photo.focus[0] - crop[0]) / crop[2];
      const v = (photo.focus[1] - crop[1]) / crop[3];
      if (u >= 0 && u <= 1 && v >= 0 && v <= 1) {
        const mark = el('span', { class: 'focus-mark', 'aria-hidden': 'true' });
        mark.style.left = `${u * 100}%`;
        mark.style.top = `${v * 100}%`;
        frame.append(mark);
      }
    }
    const badges = el('div', { class: 'badges' }, el('span', { class: 'place', text: String(place), 'aria-hidden': 'true' }));
    if (photo.lowResolution) badges.append(el('span', { class: 'badge low', text: `${Math.round(photo.dpi)} dpi`, title: 'prints below 200 dpi' }));
    if (photo.cutsFace) badges.append(el('span', { class: 'badge face', text: 'face cut', title: 'the cell cuts a face' }));
    node.append(badges);
    node.append(el('button', {
      type: 'button', class: 'remove', 'data-remove': photo.path, text: 'Remove',
      'aria-label': `leave out ${photo.path} (page ${page.number}, place ${place})`,
    }));
    return { node, ident, lang: descPhoto && descPhoto.lang };
  }

  // The title page's photo: shown where it prints, not edited here (it is the cover-photo option).
  function drawCover(cover, page) {
    const node = el('div', { class: 'cover-photo', 'aria-hidden': 'true' });
    placeBox(node, cover.cell, page);
    const [cx, cy, cw, ch] = cover.cell;
    const [ix, iy, iw, ih] = cover.image;
    const frame = el('div', { class: 'image' });
    frame.style.left = pct(ix - cx, cw);
    frame.style.top = pct(iy - cy, ch);
    frame.style.width = pct(iw, cw);
    frame.style.height = pct(ih, ch);
    frame.append(image(cover.src));
    node.append(frame);
    return node;
  }

  function drawCaptionField(photo, page, place, descPhoto, captionText, ident) {
    const value = (descPhoto && descPhoto.caption) || '';
    const field = el('textarea', {
      class: `caption${captionText ? '' : ' empty'}`,
      'data-caption': photo.path,
      'data-source': page.source,
      'data-slot': photo.slot,
      dir: 'auto',
      rows: 1,
      lang: descPhoto && descPhoto.lang,
      placeholder: 'Add a caption',
      'aria-label': `caption of ${photo.path}, page ${page.number}, place ${place}`,
      spellcheck: 'true',
    });
    // Away from the keyboard the field shows the caption as it prints (wrapped, cut with "…" past three lines);
    // focused, the whole caption as written.
    field._full = value;
    field._display = captionText && captionText.lines ? captionText.lines.join('\n') : value;
    field.value = field._display;
    field._orig = field._display;
    field.addEventListener('focus', () => {
      if (field.value === field._display) {
        field.value = field._full;
        field._orig = field._full;
      }
    });
    field.addEventListener('blur', () => {
      if (field.value === field._full) {
        field.value = field._display;
        field._orig = field._display;
      }
    });
    field._ident = ident;
    if (captionText) {
      placeBox(field, captionText.box, page);
      field.style.height = '';
      field.style.minHeight = pct(captionText.box[3], page.height);
      // As it prints (--fs); larger to edit when focused (editor.css).
      field.style.setProperty('--fs', fontSize(captionText.size, page));
      if (captionText.leading) field.style.setProperty('--lh', String(captionText.leading / captionText.size));
      field.style.textAlign = captionText.align === 'centre' ? 'center' : captionText.align || 'left';
    } else {
      // No caption yet: a slim field at the bottom of the cell, where a caption would go.
      const [x, y, w, h] = photo.cell;
      field.style.left = pct(x + w * 0.04, page.width);
      field.style.width = pct(w * 0.92, page.width);
      field.style.top = pct(y + h, page.height);
    }
    return field;
  }

  function drawPage(page, desc) {
    const descPage = page.source !== null && page.source !== undefined ? desc.pages[page.source] : null;
    const node = el('div', {
      class: `page kind-${page.kind}${page.locked ? ' locked' : ''}`,
      'data-page': page.number,
      'data-source': descPage ? page.source : null,
      'aria-label': `page ${page.number}`,
      role: 'region',
    });
    node.style.aspectRatio = `${page.width} / ${page.height}`;
    if (page.cover) node.append(drawCover(page.cover, page));
    const captionTexts = (page.texts || []).filter((t) => t.role === 'caption');
    const used = new Set();
    const fields = [];
    (page.photos || []).forEach((photo, i) => {
      const descPhoto = descPage ? descPage.photos[photo.slot] : null;
      const drawn = drawPhoto(photo, page, i + 1, descPhoto);
      node.append(drawn.node);
      if (descPage) {
        const text = captionTexts.find((t) => t.path === photo.path && !used.has(t));
        if (text) used.add(text);
        fields.push(drawCaptionField(photo, page, i + 1, descPhoto, text, drawn.ident));
      }
    });
    for (const text of page.texts || []) {
      if (!used.has(text)) node.append(drawText(text, page));
    }
    for (const field of fields) node.append(field);

    const controls = el('div', { class: 'controls' });
    controls.append(el('span', { class: 'number', text: `Page ${page.number}` }));
    if (descPage) {
      const select = el('select', { 'data-layout': '', 'data-source': page.source, 'aria-label': `layout of page ${page.number}` });
      const names = [...(page.layouts || [])];
      if (page.layout && !names.includes(page.layout)) names.unshift(page.layout);
      const chosen = descPage.layout === undefined;   // not pinned in the file: photobook's choice
      for (const name of names) {
        select.append(el('option', { value: name, text: chosen && name === page.layout ? `${name} (chosen)` : name }));
      }
      select.value = page.layout || '';
      select.title = descPage.layout ? 'pinned in the file' : 'chosen by photobook';
      const lock = el('input', {
        type: 'checkbox', 'data-locked': '', 'data-source': page.source,
        'aria-label': `lock page ${page.number}`, checked: page.locked || descPage.locked === true,
      });
      controls.append(el('label', { class: 'layout-pick' }, el('span', { text: 'Layout' }), select));
      controls.append(el('label', { class: 'lock', title: '“Arrange the rest again” leaves a locked page as it is' }, lock, el('span', { text: 'Locked' })));
    } else {
      controls.append(el('span', { class: 'kind', text: page.kind }));
    }
    return el('div', { class: 'sheet' }, node, controls);
  }

  function drawBook() {
    const book = $('[data-book]');
    const desc = state.description;
    const pages = state.pages || [];
    if (pages.length) book.style.setProperty('--aspect', String(pages[0].width / pages[0].height));
    book.classList.toggle('no-spreads', !state.spreads);
    // The words in the book's own font, where the browser has it.
    if (state.font) book.style.setProperty('--book-font', `"${state.font.replace(/["\\]/g, '')}"`);
    else book.style.removeProperty('--book-font');
    // As a printed book: page 1 alone on the right, then 2|3, 4|5, ...
    const spreads = [[null, pages[0]]];
    for (let i = 1; i < pages.length; i += 2) spreads.push([pages[i], pages[i + 1] || null]);
    const fragment = document.createDocumentFragment();
    for (const [left, right] of spreads) {
      if (!left && !right) continue;
      const spread = el('div', { class: 'spread' });
      spread.append(left ? drawPage(left, desc) : el('div', { class: 'sheet blank-side', 'aria-hidden': 'true' }));
      spread.append(right ? drawPage(right, desc) : el('div', { class: 'sheet blank-side', 'aria-hidden': 'true' }));
      if (left) spread.firstChild.classList.add('left');
      if (right) spread.lastChild.classList.add('right');
      fragment.append(spread);
    }
    book.replaceChildren(fragment);
  }

  function drawLeftOut() {
    const list = $('[data-left-out]');
    const items = state.leftOut || [];
    $('[data-left-out-empty]').hidden = items.length > 0;
    list.replaceChildren(...items.map((item) => el('li', { class: 'left-out-item' },
      el('img', { src: withToken(`/photo?path=${encodeURIComponent(item.path)}`), alt: '', loading: 'lazy' }),
      el('div', { class: 'about' },
        el('div', { class: 'path', text: item.path, title: item.path }),
        el('div', { class: 'reason', text: item.reason || '' })),
      // A photo that cannot be read is still listed in the pages: nothing to put back, but it can be taken out.
      item.failed ? el('button', { type: 'button', 'data-take-out': item.path, text: 'Take out of the pages',
                                   'aria-label': `take ${item.path} out of the pages` })
        : el('button', { type: 'button', 'data-restore': item.path, text: 'Put back', 'aria-label': `put back ${item.path}` }))));
  }

  function drawNotices() {
    const notice = $('[data-book-error]');
    notice.hidden = !state.error;
    notice.textContent = state.error ? `The file cannot be built as it is: ${state.error}` : '';
    const warnings = state.warnings || [];
    $('[data-warnings-panel]').hidden = warnings.length === 0;
    $('[data-warnings]').replaceChildren(...warnings.map((w) => el('li', { text: w })));
    $('[data-file]').textContent = state.file || 'photobook';
    document.title = `${state.file || 'book'} · photobook`;
  }

  // What has the focus, to give it back after the page is drawn again.
  function focusContext(focusRef) {
    if (focusRef) return { kind: 'photo', ref: focusRef };
    const active = document.activeElement;
    if (!active || active === document.body) return null;
    if (active.matches('[data-caption]')) {
      return {
        kind: 'caption', ref: active._ident, value: active.value, dirty: active.value !== active._orig,
        start: active.selectionStart, end: active.selectionEnd, dir: active.selectionDirection,
      };
    }
    if (active.matches('[data-photo]')) return { kind: 'photo', ref: active._ident };
    if (active.matches('[data-layout], [data-locked]')) {
      return { kind: active.matches('[data-layout]') ? 'layout' : 'locked', source: Number(active.dataset.source) };
    }
    if (active.matches('[data-remove]')) return { kind: 'photo', ref: active.closest('[data-photo]')._ident };
    return null;
  }

  function findByRef(selector, ref) {
    if (!ref) return null;
    const all = [...document.querySelectorAll(selector)];
    return all.find((n) => n._ident.source === ref.source && n._ident.slot === ref.slot && n._ident.path === ref.path)
      || all.find((n) => n._ident.path === ref.path) || null;
  }

  function restoreFocus(ctx) {
    if (!ctx) return;
    if (ctx.kind === 'photo') {
      const node = findByRef('[data-photo]', ctx.ref);
      if (node) node.focus({ preventScroll: false });
    } else if (ctx.kind === 'caption') {
      const field = findByRef('[data-caption]', ctx.ref);
      if (!field) return;
      if (ctx.dirty) field.value = ctx.value;   // never clobber what is being typed
      field.focus({ preventScroll: true });
      try { field.setSelectionRange(ctx.start, ctx.end, ctx.dir); } catch (_) { /* not a text field */ }
    } else {
      const node = document.querySelector(`[data-${ctx.kind}][data-source="${ctx.source}"]`);
      if (node) node.focus({ preventScroll: true });
    }
  }

  function render(focusRef) {
    if (!state) return;
    const ctx = focusContext(focusRef);
    rendering = true;
    try {
      drawBook();
      drawLeftOut();
      drawNotices();
      document.body.dataset.revision = String(state.revision);
      restoreFocus(ctx);
    } finally {
      rendering = false;
    }
    updateHistoryButtons();
  }

  function updateHistoryButtons() {
    $('[data-undo]').disabled = undoStack.length === 0;
    $('[data-redo]').disabled = redoStack.length === 0;
  }

  // ---- the person's actions --------------------------------------------------------------------------------

  function commitCaption(field) {
    if (rendering || !field.isConnected || field.value === field._orig) return;
    field._orig = field.value;
    enqueue(ops.setCaption(field._ident, field.value));
  }

  function onKeyDown(event) {
    const target = event.target;
    const key = event.key;
    const ctrl = event.ctrlKey || event.metaKey;
    const inField = target.matches && target.matches('input[type="text"], textarea');

    if (ctrl && !event.altKey && (event.code === 'KeyZ' || event.code === 'KeyY' || /^[zy]$/i.test(key))) {
      // In a caption with unsaved text the field's own undo works on the text.
      if (inField && target.value !== target._orig) return;
      const redo = event.code === 'KeyY' || /^y$/i.test(key) || event.shiftKey;
      event.preventDefault();
      if (inField) commitCaption(target);
      enqueue(redo ? ops.redo() : ops.undo());
      return;
    }
    if (target.matches && target.matches('[data-caption]')) {
      if (key === 'Enter' && !event.shiftKey && !event.isComposing && event.keyCode !== 229) {
        event.preventDefault();
        commitCaption(target);
      } else if (key === 'Escape') {
        target.value = target._orig;
      }
      return;
    }
    if (!target.matches || !target.matches('[data-photo]')) return;
    if (event.altKey && !ctrl) {
      const how = { ArrowLeft: 'prev', ArrowRight: 'next', PageUp: 'prevPage', PageDown: 'nextPage' }[key];
      if (how) {
        event.preventDefault();
        enqueue(ops.step(target._ident, how));
      }
    } else if ((key === 'Delete' || key === 'Del') && !ctrl) {
      event.preventDefault();
      const op = ops.remove(target._ident);
      enqueue(op);
    }
  }

  function onClick(event) {
    const target = event.target;
    const button = target.closest('button');
    if (button) {
      if (button.matches('[data-remove]')) {
        const photo = button.closest('[data-photo]');
        enqueue(ops.remove(photo._ident));
      } else if (button.matches('[data-take-out]')) {
        // A photo that cannot be read: listed in the pages but not drawn; out of them, it is left out by name.
        enqueue(ops.remove({ source: 0, slot: 0, path: button.dataset.takeOut }));
      } else if (button.matches('[data-restore]')) {
        enqueue(ops.restore(button.dataset.restore, lastPage));
      } else if (button.matches('[data-arrange]')) {
        enqueue(ops.arrange());
      } else if (button.matches('[data-undo]')) {
        enqueue(ops.undo());
      } else if (button.matches('[data-redo]')) {
        enqueue(ops.redo());
      } else if (button.matches('[data-build]')) {
        startBuild();
      }
      return;
    }
    const photo = target.closest('[data-photo]');
    if (photo && !target.closest('[data-caption]')) {
      const img = photo.querySelector('.image');
      const rect = img.getBoundingClientRect();
      if (!rect.width || !rect.height) return;
      const index = Number(photo.dataset.source);
      const shown = state.pages.find((p) => p.source === index);
      const data = shown && shown.photos.find((p) => p.slot === Number(photo.dataset.slot));
      if (!data) return;
      const crop = data.crop || [0, 0, 1, 1];
      const u = clamp((event.clientX - rect.left) / rect.width, 0, 1);
      const v = clamp((event.clientY - rect.top) / rect.height, 0, 1);
      enqueue(ops.setFocus(photo._ident, [round3(crop[0] + u * crop[2]), round3(crop[1] + v * crop[3])]));
    }
  }

  function onChange(event) {
    const target = event.target;
    if (rendering) return;
    if (target.matches('[data-caption]')) {
      commitCaption(target);
    } else if (target.matches('[data-layout]')) {
      enqueue(ops.setLayout(pageRef(state.description, Number(target.dataset.source)), target.value));
    } else if (target.matches('[data-locked]')) {
      enqueue(ops.setLocked(pageRef(state.description, Number(target.dataset.source)), target.checked));
    }
  }

  function onFocusIn(event) {
    const page = event.target.closest && event.target.closest('.sheet');
    const node = page && page.querySelector('[data-page][data-source]');
    if (node && state) lastPage = pageRef(state.description, Number(node.dataset.source));
  }

  // ---- drag and drop ---------------------------------------------------------------------------------------

  function dropTarget(event) {
    const photo = event.target.closest && event.target.closest('[data-photo]');
    if (photo) return { photo };
    const page = event.target.closest && event.target.closest('[data-page][data-source]');
    return page ? { page } : null;
  }

  function clearDropMarks() {
    for (const n of document.querySelectorAll('.drop-target')) n.classList.remove('drop-target');
  }

  function onDragStart(event) {
    const photo = event.target.closest && event.target.closest('[data-photo]');
    if (!photo) return;
    dragRef = { ...photo._ident };
    photo.classList.add('dragging');
    if (event.dataTransfer) {
      event.dataTransfer.effectAllowed = 'move';
      event.dataTransfer.setData('application/x-photobook-photo', JSON.stringify(dragRef));
      event.dataTransfer.setData('text/plain', photo.dataset.photo);
    }
  }

  function draggedRef(event) {
    if (dragRef) return dragRef;
    try {
      const data = event.dataTransfer && event.dataTransfer.getData('application/x-photobook-photo');
      return data ? JSON.parse(data) : null;
    } catch (_) {
      return null;
    }
  }

  function onDragOver(event) {
    const where = dropTarget(event);
    if (!where || !(dragRef || (event.dataTransfer && [...event.dataTransfer.types].includes('application/x-photobook-photo')))) return;
    event.preventDefault();
    if (event.dataTransfer) event.dataTransfer.dropEffect = 'move';
    const mark = where.photo || where.page;
    if (!mark.classList.contains('drop-target')) {
      clearDropMarks();
      mark.classList.add('drop-target');
    }
  }

  function onDrop(event) {
    const where = dropTarget(event);
    const ref = draggedRef(event);
    clearDropMarks();
    if (!where || !ref) return;
    event.preventDefault();
    dragRef = null;
    if (where.photo) {
      enqueue(ops.dropOnPhoto({ ...ref }, { ...where.photo._ident }));
    } else {
      enqueue(ops.dropOnPage({ ...ref }, pageRef(state.description, Number(where.page.dataset.source))));
    }
  }

  function onDragEnd() {
    dragRef = null;
    clearDropMarks();
    for (const n of document.querySelectorAll('.dragging')) n.classList.remove('dragging');
  }

  // ---- building --------------------------------------------------------------------------------------------

  function showBuild(build) {
    if (!build) return;
    $('[data-build-state]').textContent = build.state;
    $('[data-build-state]').dataset.state = build.state;
    $('[data-build-progress]').textContent = build.state === 'running' ? build.progress || '' :
      build.state === 'succeeded' ? `wrote ${build.output || 'book.pdf'}` : '';
    const messages = build.messages || [];
    $('[data-build-output]').hidden = build.state === 'idle' && messages.length === 0;
    $('[data-build-messages]').replaceChildren(
      ...messages.map((m) => el('li', { text: m })),
      ...(build.state === 'failed' && build.exitStatus !== null && build.exitStatus !== undefined
        ? [el('li', { text: `exit status ${build.exitStatus}` })] : []));
    $('[data-build]').disabled = build.state === 'running';
  }

  async function pollBuild() {
    clearTimeout(buildTimer);
    try {
      const answer = await api('GET', '/api/build');
      if (answer.status === 200) {
        showBuild(answer.data);
        if (answer.data.state === 'running') buildTimer = setTimeout(pollBuild, BUILD_POLL_MS);
        return;
      }
    } catch (_) { /* try again */ }
    buildTimer = setTimeout(pollBuild, BUILD_POLL_MS * 4);
  }

  async function startBuild() {
    try {
      const answer = await api('POST', '/api/build', {});
      if (answer.status === 202 || answer.status === 409) {
        showBuild({ state: 'running', progress: 'starting', messages: [] });
        buildTimer = setTimeout(pollBuild, BUILD_POLL_MS);
      } else {
        showBuild({ state: 'failed', messages: [(answer.data && answer.data.error) || `HTTP ${answer.status}`] });
      }
    } catch (error) {
      showBuild({ state: 'failed', messages: [error.message] });
    }
  }

  // ---- start -----------------------------------------------------------------------------------------------

  async function start() {
    const params = new URLSearchParams(location.search);
    token = params.get('token');
    // The token stays in the address (a reload needs it) and goes with every request: no cookie, as one of
    // 127.0.0.1 would go to every other server on it too.
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('click', onClick);
    document.addEventListener('change', onChange);
    document.addEventListener('focusin', onFocusIn);
    document.addEventListener('focusout', (event) => {
      if (event.target.matches && event.target.matches('[data-caption]')) commitCaption(event.target);
    });
    const book = $('[data-book]');
    book.addEventListener('dragstart', onDragStart);
    book.addEventListener('dragover', onDragOver);
    book.addEventListener('drop', onDrop);
    book.addEventListener('dragend', onDragEnd);
    book.addEventListener('dragleave', (event) => {
      if (!book.contains(event.relatedTarget)) clearDropMarks();
    });
    setStatus('loading');
    let first = null;
    while (!first) {
      first = await fetchBook();
      if (!first) {
        setStatus('error: photobook is not answering');
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    }
    state = first;
    render();
    showSettled();
    pollBuild();
    setTimeout(poll, POLL_MS);
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
