// photobook edit: what the person does (the last script, after editor-drawing.js). Keys, clicks and edited fields
// become operations on the queue (photobook.enqueue); a photo dragged onto another photo takes its place, onto a
// page goes to its end; "Build the book" starts the build and follows it until it ends. start() reads the token from
// the address, listens to the document and the book, loads the state (asking again each second until photobook
// answers), draws it and starts polling.
'use strict';

(() => {
  const BUILD_POLL_MS = 500;
  const { POLL_MS, $, round3, clamp, el, api, setStatus, showSettled } = photobook;
  const { pageRef, ops, enqueue, fetchBook, poll, render } = photobook;
  let lastPage = null;       // {source, first}: the page the person last focused, for "restore"
  let dragRef = null;        // the photo being dragged
  let buildTimer = null;

  // ---- the person's actions --------------------------------------------------------------------------------

  function commitCaption(field) {
    if (photobook.rendering || !field.isConnected || field.value === field._orig) return;
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
      const shown = photobook.state.pages.find((p) => p.source === index);
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
    if (photobook.rendering) return;
    if (target.matches('[data-caption]')) {
      commitCaption(target);
    } else if (target.matches('[data-layout]')) {
      enqueue(ops.setLayout(pageRef(photobook.state.description, Number(target.dataset.source)), target.value));
    } else if (target.matches('[data-locked]')) {
      enqueue(ops.setLocked(pageRef(photobook.state.description, Number(target.dataset.source)), target.checked));
    }
  }

  function onFocusIn(event) {
    const page = event.target.closest && event.target.closest('.sheet');
    const node = page && page.querySelector('[data-page][data-source]');
    if (node && photobook.state) lastPage = pageRef(photobook.state.description, Number(node.dataset.source));
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
      enqueue(ops.dropOnPage({ ...ref }, pageRef(photobook.state.description, Number(where.page.dataset.source))));
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
    photobook.token = params.get('token');
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
    photobook.state = first;
    render();
    showSettled();
    pollBuild();
    setTimeout(poll, POLL_MS);
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
