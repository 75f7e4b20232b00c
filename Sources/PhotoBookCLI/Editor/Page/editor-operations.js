// photobook edit: the page's changes (after editor-requests.js). The server's state (docs/editor.md) is drawn as it
// is; every change the person makes is an OPERATION on the description (setCaption, move, setLayout, setFocus,
// remove, restore, lock, arrange, undo/redo) that is applied to the latest saved description and PUT with its
// revision, one at a time. On 409 the operation is applied again on top of the state the server returned, so that
// a change made outside and the person's change both survive. This script holds the finding of photos and pages
// in a description, the operations (photobook.ops), their queue and its saving (photobook.enqueue), and the
// polling for changes made outside.
'use strict';

(() => {
  const REASON_REMOVED = 'removed in the editor';
  const MAX_ATTEMPTS = 5;
  const { POLL_MS, queue, undoStack, redoStack, clone, clamp, api, setStatus, showSettled } = photobook;
  let busy = false;          // an operation is being saved

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

  // A page operation finds the page `target` names where it is now; `change(page)` edits it and returns false
  // when that changes nothing.
  function pageOp(target, change) {
    return {
      apply(desc) {
        const source = locatePage(desc, target);
        return source !== null && change(desc.pages[source]);
      },
    };
  }

  // One step through the history: the description on top of `from` is saved; once saved, it leaves `from` and
  // the description it replaced goes onto `to` (undo's from is the undo stack, redo's the redo stack).
  function historyStep(from, to) {
    return {
      history: true,
      apply(desc) {
        if (!from.length) return false;
        this.replacement = from[from.length - 1];
        this.base = clone(desc);
        return clone(this.replacement);
      },
      done() {
        from.pop();
        to.push(this.base);
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
      return pageOp(target, (page) => {
        if ((page.layout || '') === layout) return false;
        if (layout) page.layout = layout; else delete page.layout;
        return true;
      });
    },
    setLocked(target, locked) {
      return pageOp(target, (page) => {
        if (locked) page.locked = true; else delete page.locked;
        return true;
      });
    },
    arrange() {
      return { url: '/api/arrange', method: 'POST', apply: () => true };
    },
    // Undo and redo send an earlier description as a normal save; when the file changed outside meanwhile the
    // stacks were emptied (an old description would undo that change too), so they do nothing.
    undo() {
      return historyStep(undoStack, redoStack);
    },
    redo() {
      return historyStep(redoStack, undoStack);
    },
  };

  function enqueue(op) {
    queue.push(op);
    if (photobook.state && photobook.state.unreadable) showSettled();   // kept until the file can be read again
    pump();
  }

  async function pump() {
    if (busy || !photobook.state || photobook.state.unreadable) return;
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
      photobook.updateHistoryButtons();
    }
  }

  async function run(op) {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const base = photobook.state.description;
      let desc = clone(base);
      const applied = op.apply(desc);
      if (applied === false) return;
      if (applied && typeof applied === 'object') desc = applied;
      let answer;
      try {
        answer = await api(op.method || 'PUT', op.url || '/api/book', { revision: photobook.state.revision, description: desc });
      } catch (error) {
        photobook.statusError = `photobook is not answering (${error.message})`;
        photobook.render();
        return;
      }
      if (answer.status === 200 && answer.data && answer.data.description) {
        if (op.history) op.done();
        else {
          undoStack.push(base);
          redoStack.length = 0;
        }
        photobook.statusError = null;
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
      photobook.statusError = answer.status === 422 && answer.data && answer.data.error
        ? answer.data.error
        : `the save failed (HTTP ${answer.status}${answer.data && answer.data.error ? `: ${answer.data.error}` : ''})`;
      photobook.render();     // back to the last saved state
      return;
    }
    photobook.statusError = 'the file keeps changing outside: the change was not saved';
    photobook.render();
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
    photobook.state = next;
    photobook.render(focusRef);
  }

  function takeOutsideChange(next) {
    undoStack.length = 0;
    redoStack.length = 0;
    adopt(next);
    photobook.updateHistoryButtons();
    if (!busy) showSettled();
  }

  // ---- polling for changes made outside --------------------------------------------------------------------

  async function poll() {
    try {
      if (photobook.state && !busy && !queue.length) {
        const answer = await api('GET', '/api/revision');
        if (answer.status === 200 && answer.data && answer.data.revision !== photobook.state.revision && !busy) {
          const next = await fetchBook();
          if (next && !busy && !queue.length && next.revision !== photobook.state.revision) takeOutsideChange(next);
        }
      } else if (photobook.state && photobook.state.unreadable && !busy && queue.length) {
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

  Object.assign(photobook, { pageRef, ops, enqueue, fetchBook, poll });
})();
