"""Makes libheif 1.15's irot output spec-conformant: ispe holds the coded (unrotated) size and comes before irot."""
import struct, sys
data = bytearray(open(sys.argv[1], "rb").read())
irot = data.find(b"irot") - 4
ispe = data.find(b"ispe") - 4
assert ispe == irot + 9, "expected irot (9 bytes) right before ispe"
irot_box = bytes(data[irot:irot + 9]); ispe_box = bytearray(data[ispe:ispe + 20])
w, h = struct.unpack(">II", ispe_box[12:20])
ispe_box[12:20] = struct.pack(">II", h, w)   # the coded size: before the rotation
data[irot:irot + 29] = bytes(ispe_box) + irot_box
# ipma v0, 1-byte entries: the boxes at indices 2 and 3 changed places, and so do their essential flags
ipma = data.find(b"ipma") - 4
size = struct.unpack(">I", data[ipma:ipma + 4])[0]
i = ipma + 12
count = struct.unpack(">I", data[i:i + 4])[0]; i += 4
for _ in range(count):
    i += 2  # item ID
    n = data[i]; i += 1
    at = {data[i + k] & 0x7F: i + k for k in range(n)}
    if 2 in at and 3 in at:  # each property keeps its essential flag; ispe (now 2) is listed before irot (now 3)
        f2, f3 = data[at[2]] & 0x80, data[at[3]] & 0x80
        data[at[2]] = f3 | 2; data[at[3]] = f2 | 3
    i += n
open(sys.argv[2], "wb").write(data)
