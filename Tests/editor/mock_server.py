#!/usr/bin/env python3
"""A stand-in for `photobook edit BOOK.json`, to develop and test the editor's page without the binary.

    python3 Tests/editor/mock_server.py BOOK.json [--port N] [--no-open]

The first line on standard output is the address to open, http://127.0.0.1:PORT/?token=TOKEN. It follows
docs/editor.md for the requests, the token, the Host check, the headers and the atomic saves; the state's geometry
is simple (A4 portrait, 10 mm margins, the photos of a page stacked in equal rows, a caption box under a cell whose
photo has a caption, a page number at the bottom) and a render is the photo itself (the page draws it with
object-fit: cover at its crop) or a grey JPEG. Python 3 standard library only.
"""

import base64
import hashlib
import hmac
import http.server
import json
import os
import random
import string
import re
import secrets
import signal
import socketserver
import struct
import sys
import tempfile
import threading
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
EDITOR_DIR = os.path.normpath(os.path.join(HERE, "..", "..", "Sources", "PhotoBookCLI", "Editor", "Page"))

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
MAX_BODY = 1 << 20
PAGE_W, PAGE_H = 595.28, 841.89
MARGIN = 10 / 25.4 * 72
GAP = 8.0
CAPTION_H = 14.0
CAPTION_SIZE = 9.5
GREY_JPEG = base64.b64decode(
    "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBk"
    "eFxlZ2P/wAALCAAQABABAREA/8QAFQABAQAAAAAAAAAAAAAAAAAAAAX/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/9oACAEBAAA/ALAD/9k=")
TEMP_PREFIX_FMT = ".{}.photobook-"   # temporary files beside the book: .book.json.photobook-XXXXXX (docs/editor.md)
STALE_SECONDS = 60


class Mistake(Exception):
    pass


def image_size(path):
    """(width, height) of a JPEG, PNG or GIF from its header, or None."""
    try:
        with open(path, "rb") as f:
            data = f.read(1 << 20)
    except OSError:
        return None
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return struct.unpack(">II", data[16:24])
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return struct.unpack("<HH", data[6:10])
    if data[:2] == b"\xff\xd8":
        i = 2
        while i + 9 < len(data):
            if data[i] != 0xFF:
                i += 1
                continue
            marker = data[i + 1]
            if marker in (0xC0, 0xC1, 0xC2, 0xC3):
                h, w = struct.unpack(">HH", data[i + 5:i + 9])
                return w, h
            if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
                i += 2
                continue
            i += 2 + struct.unpack(">H", data[i + 2:i + 4])[0]
    return None


def wrap(text, width, size):
    """Lines of at most three, by a rough measure (half the size per character; twice for wide ones)."""
    lines, line, used = [], "", 0.0
    for word in text.split(" "):
        w = sum(size if ord(c) > 0x2E80 else size * 0.5 for c in word + " ")
        if line and used + w > width:
            lines.append(line.rstrip())
            line, used = "", 0.0
        line += word + " "
        used += w
    lines.append(line.rstrip())
    return lines[:3]


def layouts_for(n):
    if n == 1:
        return ["single", "1"]
    if n == 2:
        return ["[1 / 2]", "[1 | 2]", "grid 2x1"]
    if n == 3:
        return ["grid 1x3", "[1 / [2 | 3]]", "[[1 | 2] / 3]", "grid 2x2"]
    if n == 4:
        return ["grid 1x4", "[[1 | 2] / [3 | 4]]", "grid 2x2"]
    if n <= 6:
        return ["grid 1x%d" % n, "grid 2x3", "grid 3x2"]
    return ["grid 1x%d" % n]


def normal_layout(name):
    return " ".join(str(name).strip().lower().split())


class Book:
    """The book file, its revision, and the state the page is sent."""

    def __init__(self, path):
        self.path = os.path.abspath(path)
        self.folder = os.path.dirname(self.path)
        self.lock = threading.RLock()      # one save at a time; a signal waits for it
        self.revision = 0
        self.signature = None
        self.content = None
        self.description = None
        self.error = None
        self.build = {"state": "idle", "progress": "", "output": "book.pdf", "messages": [], "exitStatus": None}
        self.build_started = None
        self.temp_prefix = TEMP_PREFIX_FMT.format(os.path.basename(self.path))
        self.remove_stale_temporaries()
        self.refresh()

    # -- the file ------------------------------------------------------------------------------------------------

    def remove_stale_temporaries(self):
        for name in os.listdir(self.folder):
            path = os.path.join(self.folder, name)
            if name.startswith(self.temp_prefix) and len(name) == len(self.temp_prefix) + 6:
                try:
                    if time.time() - os.lstat(path).st_mtime > STALE_SECONDS:
                        os.unlink(path)
                except OSError:
                    pass

    def refresh(self):
        """Takes up a change made to the file outside: a new (mtime, size, inode) with new content."""
        with self.lock:
            try:
                st = os.stat(self.path)
            except OSError as e:
                self.error = "%s: %s" % (os.path.basename(self.path), e.strerror)
                return
            signature = (st.st_mtime_ns, st.st_size, st.st_ino)
            if signature == self.signature:
                return
            self.signature = signature
            with open(self.path, "rb") as f:
                content = f.read()
            if content == self.content:
                return
            self.content = content
            self.revision += 1
            try:
                description = json.loads(content.decode("utf-8"))
                self.validate(description)
                self.description = description
                self.error = None
            except (ValueError, Mistake) as e:
                self.error = "%s: %s" % (os.path.basename(self.path), e)
                if self.description is None:
                    self.description = {"schema": 1, "pages": []}

    def save(self, description):
        """Writes the description atomically: a temporary file beside the book, owner and mode kept, fsync,
        rename, fsync of the folder."""
        with self.lock:
            data = (json.dumps(description, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8")
            st = os.stat(self.path)
            temp = os.path.join(self.folder, self.temp_prefix + "".join(random.choice(string.ascii_letters) for _ in range(6)))
            fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            try:
                with os.fdopen(fd, "wb") as f:
                    os.fchmod(f.fileno(), st.st_mode & 0o7777)
                    try:
                        os.fchown(f.fileno(), st.st_uid, st.st_gid)
                    except PermissionError:
                        pass
                    f.write(data)
                    f.flush()
                    os.fsync(f.fileno())
                os.replace(temp, self.path)
            except BaseException:
                try:
                    os.unlink(temp)
                except OSError:
                    pass
                raise
            dfd = os.open(self.folder, os.O_RDONLY)
            try:
                os.fsync(dfd)
            finally:
                os.close(dfd)
            st = os.stat(self.path)
            self.signature = (st.st_mtime_ns, st.st_size, st.st_ino)
            self.content = data
            self.description = description
            self.error = None
            self.revision += 1

    # -- checks as the build makes them --------------------------------------------------------------------------

    def validate(self, d):
        if not isinstance(d, dict):
            raise Mistake("expected an object")
        for key in d:
            if key not in ("schema", "options", "pages", "photosLeftOut"):
                raise Mistake("%s: unknown key" % key)
        if d.get("schema") != 1:
            raise Mistake("schema: expected 1")
        if "options" in d and not isinstance(d["options"], dict):
            raise Mistake("options: expected an object")
        pages = d.get("pages")
        if not isinstance(pages, list) or not pages:
            raise Mistake("pages: expected at least one page")
        for i, page in enumerate(pages):
            where = "pages[%d]" % i
            if not isinstance(page, dict):
                raise Mistake("%s: expected an object" % where)
            for key in page:
                if key not in ("photos", "layout", "heading", "locked"):
                    raise Mistake("%s.%s: unknown key" % (where, key))
            photos = page.get("photos")
            if not isinstance(photos, list) or not photos:
                raise Mistake("%s.photos: expected at least one photo (delete a page to drop it)" % where)
            if "locked" in page and not isinstance(page["locked"], bool):
                raise Mistake("%s.locked: expected true or false" % where)
            if "heading" in page and not isinstance(page["heading"], str):
                raise Mistake("%s.heading: expected a string" % where)
            if "layout" in page:
                names = [normal_layout(n) for n in layouts_for(len(photos))]
                if not isinstance(page["layout"], str) or normal_layout(page["layout"]) not in names:
                    raise Mistake('%s.layout: "%s" does not hold %d photos: fix it, or remove "layout" to let '
                                  'photobook choose' % (where, page["layout"], len(photos)))
            for j, photo in enumerate(photos):
                w = "%s.photos[%d]" % (where, j)
                if not isinstance(photo, dict):
                    raise Mistake("%s: expected an object" % w)
                for key in photo:
                    if key not in ("path", "caption", "lang", "focus"):
                        raise Mistake('%s.%s: unknown key (expected "path", "caption", "lang" or "focus")' % (w, key))
                if not isinstance(photo.get("path"), str):
                    raise Mistake("%s.path: expected a string" % w)
                if not os.path.isfile(self.resolve(photo["path"])):
                    raise Mistake("%s.path: %s: no such file or directory" % (w, photo["path"]))
                if "caption" in photo and not isinstance(photo["caption"], str):
                    raise Mistake("%s.caption: expected a string" % w)
                focus = photo.get("focus")
                if focus is not None and not (isinstance(focus, list) and len(focus) == 2 and all(
                        isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v <= 1 for v in focus)):
                    raise Mistake("%s.focus: expected two numbers from 0 to 1, not %s" % (w, json.dumps(focus)))
        left = d.get("photosLeftOut", [])
        if not isinstance(left, list):
            raise Mistake("photosLeftOut: expected a list")
        for i, item in enumerate(left):
            if not isinstance(item, dict) or not isinstance(item.get("path"), str) or \
                    set(item) - {"path", "reason"}:
                raise Mistake("photosLeftOut[%d]: expected {\"path\": ..., \"reason\": ...}" % i)

    def resolve(self, path):
        return path if os.path.isabs(path) else os.path.join(self.folder, path)

    # -- the state -----------------------------------------------------------------------------------------------

    def render_name(self, path):
        try:
            with open(self.resolve(path), "rb") as f:
                head = f.read(3)
                if head == b"\xff\xd8\xff":
                    f.seek(0)
                    return hashlib.sha256(f.read()).hexdigest()[:32]
        except OSError:
            pass
        return "grey"

    def state(self):
        with self.lock:
            d = self.description
            pages = []
            options = d.get("options") or {}
            if options.get("title"):
                texts = [{"role": "title", "box": [MARGIN, PAGE_H * 0.35, PAGE_W - 2 * MARGIN, 40],
                          "lines": [str(options["title"])], "size": 28, "align": "centre"}]
                pages.append({"number": 1, "kind": "title", "source": None, "width": PAGE_W, "height": PAGE_H,
                              "layout": None, "layouts": [], "locked": False, "photos": [], "texts": texts})
            for source, page in enumerate(d.get("pages", [])):
                pages.append(self.page_state(len(pages) + 1, source, page))
            return {
                "revision": self.revision,
                "file": os.path.basename(self.path),
                "description": d,
                "error": self.error,
                "spreads": True,
                "pages": pages,
                "leftOut": [{"path": i.get("path"), "reason": i.get("reason", "")} for i in d.get("photosLeftOut", [])
                            if isinstance(i, dict)],
                "warnings": [],
            }

    def page_state(self, number, source, page):
        photos = page.get("photos") or []
        n = max(1, len(photos))
        layouts = layouts_for(n)
        texts = []
        top = MARGIN
        if page.get("heading"):
            texts.append({"role": "heading", "box": [MARGIN, MARGIN, PAGE_W - 2 * MARGIN, 22],
                          "lines": [page["heading"]], "size": 16, "align": "left"})
            top += 22 + GAP
        bottom = PAGE_H - MARGIN - 14
        row_h = (bottom - top - GAP * (n - 1)) / n
        cells = []
        for slot, photo in enumerate(photos):
            y = top + slot * (row_h + GAP)
            h = row_h - (CAPTION_H * len(wrap(photo["caption"], PAGE_W - 2 * MARGIN, CAPTION_SIZE)) + 2
                         if photo.get("caption") else 0)
            cell = [MARGIN, y, PAGE_W - 2 * MARGIN, h]
            size = image_size(self.resolve(photo.get("path", ""))) or (4, 3)
            pa, ca = size[0] / size[1], cell[2] / cell[3]
            fx, fy = photo.get("focus") or (0.5, 0.5)
            if pa > ca:
                cw, ch = ca / pa, 1.0
            else:
                cw, ch = 1.0, pa / ca
            cx = min(max(fx - cw / 2, 0.0), 1.0 - cw)
            cy = min(max(fy - ch / 2, 0.0), 1.0 - ch)
            dpi = min(size[0] * cw / (cell[2] / 72), size[1] * ch / (cell[3] / 72))
            cells.append({
                "path": photo.get("path"), "slot": slot, "cell": [round(v, 2) for v in cell],
                "image": [round(v, 2) for v in cell],
                "src": "/render/%s.jpg" % self.render_name(photo.get("path", "")),
                "crop": [round(cx, 4), round(cy, 4), round(cw, 4), round(ch, 4)],
                "focus": photo.get("focus"), "dpi": int(dpi), "lowResolution": dpi < 200, "cutsFace": False,
            })
            if photo.get("caption"):
                lines = wrap(photo["caption"], cell[2], CAPTION_SIZE)
                texts.append({"role": "caption", "path": photo.get("path"),
                              "box": [round(MARGIN, 2), round(y + h + 2, 2), round(PAGE_W - 2 * MARGIN, 2),
                                      CAPTION_H * len(lines)],
                              "lines": lines, "size": CAPTION_SIZE, "align": "centre"})
        texts.append({"role": "pageNumber", "box": [MARGIN, PAGE_H - MARGIN - 10, PAGE_W - 2 * MARGIN, 10],
                      "lines": [str(number)], "size": 9, "align": "centre"})
        layout = page.get("layout")
        return {"number": number, "kind": "photos", "source": source, "width": PAGE_W, "height": PAGE_H,
                "layout": layout if layout else layouts[0], "layouts": layouts, "locked": bool(page.get("locked")),
                "photos": cells, "texts": texts}

    def listed_paths(self):
        d = self.description or {}
        paths = [p.get("path") for page in d.get("pages", []) for p in page.get("photos", []) if isinstance(p, dict)]
        paths += [i.get("path") for i in d.get("photosLeftOut", []) if isinstance(i, dict)]
        return [p for p in paths if isinstance(p, str)]

    def photo_file(self, path):
        """The file for GET /photo?path=, or None: listed in the book, no '..', real path inside the folders of
        the book's photos."""
        with self.lock:
            listed = self.listed_paths()
        if path not in listed or ".." in re.split(r"[/\\]", path):
            return None
        folders = {os.path.realpath(os.path.dirname(self.resolve(p))) for p in listed if ".." not in p.split("/")}
        real = os.path.realpath(self.resolve(path))
        if not any(real.startswith(f.rstrip("/") + "/") for f in folders):
            return None
        return real if os.path.isfile(real) else None

    def build_state(self):
        with self.lock:
            if self.build["state"] == "running":
                elapsed = time.monotonic() - self.build_started
                if elapsed >= 1.0:
                    self.build = {"state": "succeeded", "progress": "done", "output": "book.pdf",
                                  "messages": ["wrote book.pdf (mock: no PDF is written)"], "exitStatus": 0}
                else:
                    pages = len(self.description.get("pages", []))
                    self.build["progress"] = "page %d of %d" % (min(pages, 1 + int(elapsed * pages)), pages)
            return dict(self.build)


class Handler(http.server.BaseHTTPRequestHandler):
    server_version = "photobook-mock"
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        if os.environ.get("MOCK_LOG"):
            sys.stderr.write("mock: " + fmt % args + "\n")

    # -- answers -------------------------------------------------------------------------------------------------

    def answer(self, status, body=b"", content_type="application/json", headers=(), cache="no-store"):
        if isinstance(body, (dict, list)):
            body = json.dumps(body, ensure_ascii=False).encode("utf-8")
        elif isinstance(body, str):
            body = body.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("Cache-Control", cache)
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def error(self, status, message):
        self.answer(status, {"error": message})

    # -- checks --------------------------------------------------------------------------------------------------

    def allowed(self):
        port = self.server.server_address[1]
        if self.headers.get("Host") not in ("127.0.0.1:%d" % port, "localhost:%d" % port):
            return False
        token = self.server.token
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
        given = query.get("token", [None])[0] or self.headers.get("X-Photobook-Token")
        return bool(given) and hmac.compare_digest(given.encode(), token.encode())

    def read_body(self):
        """The JSON body, or None after answering 413/415/400."""
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY:
            # Read (and drop) what was sent, up to a bound, so that the client sees the answer rather than a reset.
            left = min(length, 16 * MAX_BODY)
            while left > 0:
                chunk = self.rfile.read(min(left, 65536))
                if not chunk:
                    break
                left -= len(chunk)
            self.error(413, "the body is over 1 MB")
            self.close_connection = True
            return None
        ctype = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if self.command not in ("POST", "PUT") or ctype != "application/json":
            self.error(415, "expected Content-Type: application/json")
            self.close_connection = True
            return None
        raw = self.rfile.read(length) if length else b""
        try:
            return json.loads(raw.decode("utf-8")) if raw else {}
        except ValueError:
            self.error(400, "the body is not JSON")
            return None

    # -- requests ------------------------------------------------------------------------------------------------

    def do_GET(self):
        self.route()

    def do_HEAD(self):
        self.route()

    def do_PUT(self):
        self.route()

    def do_POST(self):
        self.route()

    def do_DELETE(self):
        self.route()

    def route(self):
        if not self.allowed():
            self.error(403, "forbidden")
            return
        has_body = int(self.headers.get("Content-Length") or 0) > 0 or self.headers.get("Transfer-Encoding")
        if has_body or self.command in ("PUT", "POST"):
            body = self.read_body()
            if body is None:
                return
        else:
            body = None
        split = urllib.parse.urlsplit(self.path)
        path, query = split.path, urllib.parse.parse_qs(split.query)
        book = self.server.book
        method = "GET" if self.command == "HEAD" else self.command
        if method == "GET" and path == "/":
            self.static("index.html")
        elif method == "GET" and path == "/favicon.ico":
            self.answer(204, b"", "image/x-icon")
        elif method == "GET" and path == "/api/book":
            book.refresh()
            self.answer(200, book.state())
        elif method == "GET" and path == "/api/revision":
            book.refresh()
            self.answer(200, {"revision": book.revision})
        elif method == "PUT" and path == "/api/book":
            self.save(body, arrange=False)
        elif method == "POST" and path == "/api/arrange":
            self.save(body, arrange=True)
        elif method == "POST" and path == "/api/build":
            with book.lock:
                if book.build["state"] == "running":
                    self.answer(409, book.build_state())
                    return
                book.build = {"state": "running", "progress": "starting", "output": "book.pdf", "messages": [],
                              "exitStatus": None}
                book.build_started = time.monotonic()
            self.answer(202, book.build_state())
        elif method == "GET" and path == "/api/build":
            self.answer(200, book.build_state())
        elif method == "GET" and re.fullmatch(r"/render/[0-9a-z]+\.jpg", path):
            name = path[len("/render/"):-4]
            data = GREY_JPEG
            if name != "grey":
                with book.lock:
                    listed = book.listed_paths()
                for p in listed:
                    if book.render_name(p) == name:
                        with open(book.resolve(p), "rb") as f:
                            data = f.read()
                        break
                else:
                    self.error(404, "no such render")
                    return
            self.answer(200, data, "image/jpeg", cache="private, max-age=31536000, immutable")
        elif method == "GET" and path == "/photo":
            real = book.photo_file(query.get("path", [""])[0])
            if real is None:
                self.error(404, "no such photo")
                return
            with open(real, "rb") as f:
                data = f.read()
            kinds = [(b"\xff\xd8", "image/jpeg"), (b"\x89PNG", "image/png"), (b"GIF8", "image/gif"),
                     (b"RIFF", "image/webp")]
            ctype = next((t for magic, t in kinds if data.startswith(magic)), None)
            if ctype is None:
                self.error(404, "not a picture the browser shows")
                return
            self.answer(200, data, ctype)
        elif method == "GET" and re.fullmatch(r"/[A-Za-z0-9_-][A-Za-z0-9_.-]*\.(js|css|svg|html)", path):
            self.static(path[1:])
        else:
            self.error(404, "not found")

    def static(self, name, headers=()):
        file = os.path.join(EDITOR_DIR, name)
        if not os.path.isfile(file):
            self.error(404, "not found")
            return
        kind = {"js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8",
                "html": "text/html; charset=utf-8", "svg": "image/svg+xml"}[name.rsplit(".", 1)[1]]
        with open(file, "rb") as f:
            data = f.read()
        if name == "index.html":   # as photobook: its own files (scripts, style) and its icon named with the token
            for asset in [n for n in os.listdir(EDITOR_DIR) if n != "index.html"] + ["favicon.ico"]:
                quoted = b'"/' + asset.encode() + b'"'
                data = data.replace(quoted, quoted[:-1] + b"?token=" + self.server.token.encode() + b'"')
        self.answer(200, data, kind, headers=headers)

    def save(self, body, arrange):
        book = self.server.book
        if not isinstance(body, dict) or not isinstance(body.get("description"), dict):
            self.error(400, "expected {\"revision\": R, \"description\": {...}}")
            return
        with book.lock:
            book.refresh()
            if body.get("revision") != book.revision:
                self.answer(409, book.state())
                return
            description = body["description"]
            try:
                book.validate(description)
            except Mistake as e:
                self.error(422, "%s: %s" % (os.path.basename(book.path), e))
                return
            if arrange:
                for page in description["pages"]:
                    if not page.get("locked"):
                        page.pop("layout", None)
            book.save(description)
            self.answer(200, book.state())


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def main(argv):
    args = argv[1:]
    port = 0
    book_path = None
    i = 0
    while i < len(args):
        if args[i] == "--port":
            port = int(args[i + 1])
            i += 2
            continue
        if args[i] == "--no-open":
            pass
        elif args[i] == "edit" and book_path is None:
            pass
        else:
            book_path = args[i]
        i += 1
    if not book_path:
        sys.stderr.write("usage: mock_server.py BOOK.json [--port N] [--no-open]\n")
        return 2
    book = Book(book_path)
    server = Server(("127.0.0.1", port), Handler)
    server.book = book
    server.token = secrets.token_hex(16)

    def stop(signum, frame):
        with book.lock:          # a save in progress is finished first
            sys.stdout.flush()
            os._exit(130)  # as photobook: 130 for SIGINT and SIGTERM

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    print("http://127.0.0.1:%d/?token=%s" % (server.server_address[1], server.token), flush=True)
    server.serve_forever(poll_interval=0.2)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
