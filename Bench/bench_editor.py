"""Issue 35's figures: `photobook edit` on a 100-photo book (the 96 corpus photos, portraits and PNGs among them,
three real phones' HEICs and a web photo from Fixtures/): how long until the page can be drawn, with an empty render
cache and then from it (target: under 3 s), and how long a caption or a layout change takes until the page has its
new pages and their renders (target: under 1 s). Each is timed as the page meets it: the first is from the start
of the process to the last render of the last page fetched; a change from its PUT to the last new render fetched."""
import json
import os
import shutil
import subprocess
import time
import urllib.request

from bench_config import CORPUS, PHOTOBOOK, ROOT, WORK, rel, run_checked, say
from bench_photos import linked_set

PHONE_HEICS = ["Fixtures/heif/metadata-extractor-images/iphone-xr.heic",
               "Fixtures/heif/metadata-extractor-images/iphone11pro-ios18-aux.heic",
               "Fixtures/heif/metadata-extractor-images/samsung-galaxy-s10plus.heic",
               "Fixtures/exif-orientation/Portrait_3.jpg"]


class Editor:
    """A running `photobook edit --no-open`, spoken to as the page speaks to it."""

    def __init__(self, book, env):
        self.start = time.monotonic()
        self.process = subprocess.Popen([PHOTOBOOK, "edit", book, "--no-open"], stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, env=env, cwd=ROOT)
        address = self.process.stdout.readline().decode().strip()
        self.base, self.token = address.split("/?token=")
        self.seen = set()

    def request(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"X-Photobook-Token": self.token, "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=600) as response:
            payload = response.read()
        return json.loads(payload) if path.startswith("/api/") else payload

    def fetch_renders(self, state):
        """Every render the page does not hold yet, as the browser would fetch them; how many."""
        fresh = [p["src"] for page in state["pages"] for p in page["photos"] if p["src"] not in self.seen]
        for src in fresh:
            self.request("GET", src)
            self.seen.add(src)
        return len(fresh)

    def stop(self):
        self.process.send_signal(2)
        self.process.wait(timeout=60)


def editor_case():
    folder, _ = linked_set("editor-100", sorted(n for n in os.listdir(CORPUS) if n.startswith("IMG_")))
    for index, fixture in enumerate(PHONE_HEICS):
        shutil.copyfile(os.path.join(ROOT, fixture), os.path.join(folder, f"phone-{index}{os.path.splitext(fixture)[1]}"))
    book = os.path.join(WORK, "editor-book.json")
    cache = os.path.join(WORK, "editor-cache")
    shutil.rmtree(cache, ignore_errors=True)
    env = dict(os.environ, XDG_CACHE_HOME=cache)
    if os.path.exists(book):
        os.remove(book)
    run_checked([PHOTOBOOK, "init", rel(folder), "--layout", "auto", "--captions", "name", "--page-numbers",
                 "--title", "A hundred photos", "-o", rel(book)], "writing the editor's book")

    def opened():
        editor = Editor(book, env)
        state = editor.request("GET", "/api/book")
        editor.fetch_renders(state)
        return editor, state, time.monotonic() - editor.start

    editor, state, cold = opened()
    editor.stop()
    editor, state, warm = opened()
    photos = sum(len(page["photos"]) for page in state["pages"])

    def change(edit):
        nonlocal state
        description = json.loads(json.dumps(state["description"]))
        edit(description)
        start = time.monotonic()
        state = editor.request("PUT", "/api/book", {"revision": state["revision"], "description": description})
        renders = editor.fetch_renders(state)
        return time.monotonic() - start, renders

    def caption(description):
        description["pages"][3]["photos"][0]["caption"] = "A caption typed in the editor, long enough to wrap"

    def layout(description):
        # The first page of several photos gets the arrangement the page lists next after the one it has.
        page = next(p for p in state["pages"] if len(p["photos"]) >= 2)
        choices = [name for name in page["layouts"] if name != page["layout"] and not name.startswith("grid")]
        description["pages"][page["source"]]["layout"] = choices[0]

    caption_time, caption_renders = change(caption)
    layout_time, layout_renders = change(layout)
    editor.stop()
    say(f"\nThe editor (issue 35): photobook edit on {photos} photos ({len(state['pages'])} pages: the corpus, "
        f"3 phones' HEICs, a web JPEG):")
    say(f"    opened, empty render cache: {cold:.2f} s to the last render of the last page")
    say(f"    opened, from the cache: {warm:.2f} s {'(met)' if warm < 3 else '(NOT MET: target under 3 s)'}")
    say(f"    a caption changed: {caption_time:.2f} s to the new pages and {caption_renders} new render(s) "
        f"{'(met)' if caption_time < 1 else '(NOT MET: target under 1 s)'}")
    say(f"    a page's layout changed: {layout_time:.2f} s to the new pages and {layout_renders} new render(s) "
        f"{'(met)' if layout_time < 1 else '(NOT MET: target under 1 s)'}")
