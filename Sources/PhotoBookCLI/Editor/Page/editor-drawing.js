// photobook edit: the page's drawing (after editor-operations.js). The book is drawn from the server's state as it
// is, as spreads of pages at their size in % (each photo's cell and picture, the title page's photo, the texts, a
// caption field where the caption prints, the page's layout and lock), then the left-out photos, the notices and
// the history buttons. photobook.render draws it all again after every change and gives the focus back where it
// was; the <img> of a picture is reused across renders so that nothing flickers.
'use strict';

(() => {
  const { undoStack, redoStack, $, pct, el } = photobook;
  const images = new Map();  // src -> <img>, reused across renders so that nothing flickers

  // ---- drawing ---------------------------------------------------------------------------------------------

  // A picture's address with the token (an <img> cannot send a header).
  const withToken = (src) => `${src}${src.includes('?') ? '&' : '?'}token=${encodeURIComponent(photobook.token || '')}`;

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
    const frame = imageFrame(photo.cell, photo.image);
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

  // The frame of a picture in its cell: `box`, the picture's whole extent on the page, in % of the cell (the
  // cell clips it where the crop leaves part of the picture out).
  function imageFrame(cell, box) {
    const [cx, cy, cw, ch] = cell;
    const [ix, iy, iw, ih] = box;
    const frame = el('div', { class: 'image' });
    frame.style.left = pct(ix - cx, cw);
    frame.style.top = pct(iy - cy, ch);
    frame.style.width = pct(iw, cw);
    frame.style.height = pct(ih, ch);
    return frame;
  }

  // The title page's photo: shown where it prints, not edited here (it is the cover-photo option).
  function drawCover(cover, page) {
    const node = el('div', { class: 'cover-photo', 'aria-hidden': 'true' });
    placeBox(node, cover.cell, page);
    const frame = imageFrame(cover.cell, cover.image);
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
    const desc = photobook.state.description;
    const pages = photobook.state.pages || [];
    if (pages.length) book.style.setProperty('--aspect', String(pages[0].width / pages[0].height));
    book.classList.toggle('no-spreads', !photobook.state.spreads);
    // The words in the book's own font, where the browser has it.
    if (photobook.state.font) book.style.setProperty('--book-font', `"${photobook.state.font.replace(/["\\]/g, '')}"`);
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
    const items = photobook.state.leftOut || [];
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
    notice.hidden = !photobook.state.error;
    notice.textContent = photobook.state.error ? `The file cannot be built as it is: ${photobook.state.error}` : '';
    const warnings = photobook.state.warnings || [];
    $('[data-warnings-panel]').hidden = warnings.length === 0;
    $('[data-warnings]').replaceChildren(...warnings.map((w) => el('li', { text: w })));
    $('[data-file]').textContent = photobook.state.file || 'photobook';
    document.title = `${photobook.state.file || 'book'} · photobook`;
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
    if (!photobook.state) return;
    const ctx = focusContext(focusRef);
    photobook.rendering = true;
    try {
      drawBook();
      drawLeftOut();
      drawNotices();
      document.body.dataset.revision = String(photobook.state.revision);
      restoreFocus(ctx);
    } finally {
      photobook.rendering = false;
    }
    updateHistoryButtons();
  }

  function updateHistoryButtons() {
    $('[data-undo]').disabled = undoStack.length === 0;
    $('[data-redo]').disabled = redoStack.length === 0;
  }

  Object.assign(photobook, { render, updateHistoryButtons });
})();
