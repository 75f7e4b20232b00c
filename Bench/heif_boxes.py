"""The ISO-BMFF boxes of Bench/heic_grid.py: the reader of a HEIF file's items (Meta, primary_hevc) and the writer
of the grid file (grid_file), with the MuxError they raise. Standard library only."""

import struct


class MuxError(RuntimeError):
    pass


# Reading ISO-BMFF (the tiles heif-enc writes, and the grid files, to check them).

def boxes(data, start=0, end=None):
    """(type, body start, body end) of each box in data[start:end]."""
    end = len(data) if end is None else end
    while start + 8 <= end:
        size, kind = struct.unpack(">I4s", data[start:start + 8])
        header = 8
        if size == 1:
            size, header = struct.unpack(">Q", data[start + 8:start + 16])[0], 16
        elif size == 0:
            size = end - start
        if size < header or start + size > end:
            raise MuxError(f"damaged {kind!r} box at {start}")
        yield kind.decode("latin-1"), start + header, start + size
        start += size


def _child(data, start, end, kind):
    return next(((s, e) for k, s, e in boxes(data, start, end) if k == kind), None)


def _uint(data, at, size):
    return int.from_bytes(data[at:at + size], "big"), at + size


class Meta:
    """The item boxes of a HEIF file's `meta`: items (type, flags), locations, properties and references."""

    def __init__(self, data):
        self.data = data
        top = {k: (s, e) for k, s, e in reversed(list(boxes(data)))}
        if "meta" not in top:
            raise MuxError("no meta box")
        start, end = top["meta"]
        children = {}
        for k, s, e in boxes(data, start + 4, end):
            children.setdefault(k, (s, e))
        self.primary = self._pitm(*children["pitm"])
        self.items = self._iinf(*children["iinf"])
        self.locations = self._iloc(*children["iloc"])
        self.idat = children.get("idat")
        self.properties, self.associations = self._iprp(*children["iprp"])
        self.references = self._iref(*children["iref"]) if "iref" in children else []

    def _pitm(self, start, end):
        return _uint(self.data, start + 4, 2 if self.data[start] == 0 else 4)[0]

    def _iinf(self, start, end):
        items = {}
        version = self.data[start]
        for kind, s, e in boxes(self.data, start + (6 if version == 0 else 8), end):
            if kind != "infe" or self.data[s] < 2:
                continue
            flags = int.from_bytes(self.data[s + 1:s + 4], "big")
            item, at = _uint(self.data, s + 4, 2 if self.data[s] == 2 else 4)
            items[item] = (self.data[at + 2:at + 6].decode("latin-1"), flags)
        return items

    def _iloc(self, start, end):
        d, locations = self.data, {}
        version = d[start]
        offset_size, length_size = d[start + 4] >> 4, d[start + 4] & 15
        base_size, index_size = d[start + 5] >> 4, (d[start + 5] & 15) if version else 0
        count, at = _uint(d, start + 6, 2 if version < 2 else 4)
        for _ in range(count):
            item, at = _uint(d, at, 2 if version < 2 else 4)
            method = 0
            if version:
                method, at = _uint(d, at, 2)
                method &= 15
            at += 2  # data_reference_index
            base, at = _uint(d, at, base_size)
            extents, at = _uint(d, at, 2)
            spans = []
            for _ in range(extents):
                at += index_size
                offset, at = _uint(d, at, offset_size)
                length, at = _uint(d, at, length_size)
                spans.append((base + offset, length))
            locations[item] = (method, spans)
        return locations

    def _iprp(self, start, end):
        ipco = _child(self.data, start, end, "ipco")
        properties = [(k, self.data[s - 8:e]) for k, s, e in boxes(self.data, *ipco)]  # whole boxes, 32-bit sizes
        associations = {}
        for s, e in [(s, e) for k, s, e in boxes(self.data, start, end) if k == "ipma"]:
            version, flags = self.data[s], self.data[s + 3]
            count, at = _uint(self.data, s + 4, 4)
            for _ in range(count):
                item, at = _uint(self.data, at, 2 if version < 1 else 4)
                n, at = _uint(self.data, at, 1)
                for _ in range(n):
                    value, at = _uint(self.data, at, 2 if flags & 1 else 1)
                    wide = 15 if flags & 1 else 7
                    associations.setdefault(item, []).append((value & ((1 << wide) - 1), bool(value >> wide)))
        return properties, associations

    def _iref(self, start, end):
        version, refs = self.data[start], []
        size = 2 if version == 0 else 4
        for kind, s, e in boxes(self.data, start + 4, end):
            source, at = _uint(self.data, s, size)
            count, at = _uint(self.data, at, 2)
            targets = [_uint(self.data, at + size * n, size)[0] for n in range(count)]
            refs.append((kind, source, targets))
        return refs

    def item_data(self, item):
        method, spans = self.locations[item]
        if method == 0:
            return b"".join(self.data[o:o + n] for o, n in spans)
        if method == 1 and self.idat:
            base = self.idat[0]
            return b"".join(self.data[base + o:base + o + n] for o, n in spans)
        raise MuxError(f"item {item}: construction method {method} is not read here")

    def item_properties(self, item):
        """(type, whole box, essential) of each property associated with `item`, in ipma order."""
        return [self.properties[i - 1] + (essential,) for i, essential in self.associations.get(item, []) if i > 0]


def _ispe(box):
    return struct.unpack(">II", box[12:20])


def primary_hevc(data):
    """The primary image of a one-image HEIC: (hvcC box, coded data, (width, height) from its ispe)."""
    meta = Meta(data)
    kind = meta.items.get(meta.primary, ("?", 0))[0]
    if kind != "hvc1":
        raise MuxError(f"the tile's primary item is '{kind}', not a plain hvc1 image")
    properties = {k: box for k, box, _ in meta.item_properties(meta.primary)}
    if "hvcC" not in properties or "ispe" not in properties:
        raise MuxError("the tile has no hvcC or no ispe")
    return properties["hvcC"], meta.item_data(meta.primary), _ispe(properties["ispe"])


# Writing the grid file.

def _box(kind, body):
    return struct.pack(">I4s", 8 + len(body), kind.encode()) + body


def _full(kind, version, flags, body):
    return _box(kind, struct.pack(">I", version << 24 | flags) + body)


def grid_file(width, height, tile, columns, tiles, exif):
    """The bytes of the HEIF file: `tiles` (hvcC box, coded data) in row-major order, `exif` a TIFF structure
    (or None)."""
    rows = len(tiles) // columns
    grid_id, first_tile = 1, 2
    exif_id = first_tile + len(tiles)
    wide = width > 0xFFFF or height > 0xFFFF
    grid = struct.pack(">BBBB", 0, int(wide), rows - 1, columns - 1) + struct.pack(">II" if wide else ">HH", width, height)
    exif_item = struct.pack(">I", 0) + exif if exif else None

    configs = []  # the distinct hvcC boxes, in order of first use
    for config, _ in tiles:
        if config not in configs:
            configs.append(config)
    ispe_tile, ispe_grid = len(configs) + 1, len(configs) + 2
    ipco = b"".join(configs) + _full("ispe", 0, 0, struct.pack(">II", tile, tile)) \
        + _full("ispe", 0, 0, struct.pack(">II", width, height))
    wide_index = ispe_grid > 127

    def associations(item, indices):
        entry = struct.pack(">HB", item, len(indices))
        for index, essential in indices:
            entry += struct.pack(">H" if wide_index else ">B", index | (essential << (15 if wide_index else 7)))
        return entry
    ipma = [associations(grid_id, [(ispe_grid, False)])]
    ipma += [associations(first_tile + n, [(configs.index(config) + 1, True), (ispe_tile, False)])
             for n, (config, _) in enumerate(tiles)]

    def infe(item, kind, hidden=False):
        return _full("infe", 2, int(hidden), struct.pack(">HH", item, 0) + kind.encode() + b"\0")
    entries = [infe(grid_id, "grid")] + [infe(first_tile + n, "hvc1", hidden=True) for n in range(len(tiles))]
    refs = _box("dimg", struct.pack(">HH", grid_id, len(tiles))
                + b"".join(struct.pack(">H", first_tile + n) for n in range(len(tiles))))
    if exif_item:
        entries.append(infe(exif_id, "Exif"))
        refs += _box("cdsc", struct.pack(">HHH", exif_id, 1, grid_id))

    payloads = [(grid_id, grid)] + [(first_tile + n, data) for n, (_, data) in enumerate(tiles)]
    if exif_item:
        payloads.append((exif_id, exif_item))

    def meta(mdat_data):
        offsets, at = [], mdat_data
        for item, payload in payloads:
            offsets.append(struct.pack(">HHHHII", item, 0, 0, 1, at, len(payload)))  # method 0, one extent
            at += len(payload)
        iloc = _full("iloc", 1, 0, bytes([0x44, 0x00]) + struct.pack(">H", len(payloads)) + b"".join(offsets))
        return _full("meta", 0, 0, b"".join([
            _full("hdlr", 0, 0, struct.pack(">I4sIII", 0, b"pict", 0, 0, 0) + b"\0"),
            _full("pitm", 0, 0, struct.pack(">H", grid_id)),
            _full("iinf", 0, 0, struct.pack(">H", len(entries)) + b"".join(entries)),
            _full("iref", 0, 0, refs),
            _box("iprp", _box("ipco", ipco) + _full("ipma", 0, int(wide_index), struct.pack(">I", len(ipma)) + b"".join(ipma))),
            iloc]))

    ftyp = _box("ftyp", b"heic" + struct.pack(">I", 0) + b"mif1heic")
    body = b"".join(payload for _, payload in payloads)
    if len(body) + 8 > 0xFFFFFFFF:
        raise MuxError("more than 4 GB of tiles")
    placeholder = meta(0)  # iloc's fields have fixed sizes: the offsets do not change the meta's length
    return ftyp + meta(len(ftyp) + len(placeholder) + 8) + _box("mdat", body)
