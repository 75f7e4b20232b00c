"""Reads a PDF with pikepdf (qpdf's Python binding, Debian's python3-pikepdf), a reader that is not photobook's,
and checks it against the PDF/X-4 rules docs/research/pdfx.md lists, or with --x1a the PDF/X-1a:2003 ones.
Prints one JSON object: "problems", each a rule broken, and "facts", what was found, for the test to compare with
what it asked for.

usage: python3 pdfx_check.py [--x1a] BOOK.pdf
"""
import json
import re
import sys
import xml.etree.ElementTree as ET

import pikepdf

NS = {
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "dc": "http://purl.org/dc/elements/1.1/",
    "xmp": "http://ns.adobe.com/xap/1.0/",
    "xmpMM": "http://ns.adobe.com/xap/1.0/mm/",
    "pdf": "http://ns.adobe.com/pdf/1.3/",
    "pdfxid": "http://www.npes.org/pdfx/ns/id/",
}
DEVICE_RGB_OPERATORS = {"rg", "RG"}


def pdf_date_to_xmp(text):
    """D:YYYYMMDDHHmmSS followed by Z or +HH'mm' as ISO 8601, to compare with XMP's dates."""
    m = re.fullmatch(r"D:(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)(Z|[+-]\d\d'\d\d')?.*", text)
    if not m:
        return None
    y, mo, d, h, mi, s, zone = m.groups()
    if zone in (None, "Z") or zone.startswith("Z"):
        zone = "Z"
    else:
        zone = zone[:3] + ":" + zone[4:6]
    return f"{y}-{mo}-{d}T{h}:{mi}:{s}{zone}"


def box(page, name):
    value = page.get(name)
    return [float(v) for v in value] if value is not None else None


def inside(inner, outer, slack=0.01):
    return (inner[0] >= outer[0] - slack and inner[1] >= outer[1] - slack
            and inner[2] <= outer[2] + slack and inner[3] <= outer[3] + slack)


def colour_space_names(space):
    """Every device space a colour space names, not counting an ICCBased stream's /Alternate."""
    if isinstance(space, pikepdf.Name):
        return [str(space)]
    if isinstance(space, pikepdf.Array) and len(space) > 0:
        family = str(space[0])
        if family == "/ICCBased":
            return ["/ICCBased"]
        return [family] + [n for item in list(space)[1:] for n in colour_space_names(item)]
    return []


def check_x1a(pdf, problems, facts):
    """PDF/X-1a:2003 (ISO 15930-4): the Info keys, and in every object of the file only device CMYK and grey,
    images as 8-bit 4-component DCT JPEGs, nothing transparent."""
    info = pdf.trailer.get("/Info", {})
    for key in ("/GTS_PDFXVersion", "/GTS_PDFXConformance"):
        if str(info.get(key, "")) != "PDF/X-1a:2003":
            problems.append(f"Info {key} is {info.get(key)!r}, not PDF/X-1a:2003")
    images, found = [], set()
    intents = [oi.get("/DestOutputProfile") for oi in pdf.Root.get("/OutputIntents", [])]
    for obj in pdf.objects:
        if not isinstance(obj, (pikepdf.Dictionary, pikepdf.Stream)):
            continue
        if any(obj.is_owned_by(pdf) and p is not None and obj.objgen == p.objgen for p in intents):
            continue
        for key in obj.keys():
            value = obj[key]
            if key in ("/ColorSpace", "/CS"):
                for name in (colour_space_names(value) if not isinstance(value, pikepdf.Dictionary)
                             else [n for v in value.values() for n in colour_space_names(v)]):
                    found.add(name)
            if key == "/SMask" and value != pikepdf.Name("/None"):
                problems.append(f"object {obj.objgen}: an /SMask")
            if key in ("/CA", "/ca") and float(value) != 1:
                problems.append(f"object {obj.objgen}: /{key[1:]} {float(value)} (transparency)")
            if key == "/BM" and value not in (pikepdf.Name("/Normal"), pikepdf.Name("/Compatible")):
                problems.append(f"object {obj.objgen}: blend mode {value}")
            if key == "/Group" and isinstance(value, pikepdf.Dictionary) and value.get("/S") == pikepdf.Name("/Transparency"):
                problems.append(f"object {obj.objgen}: a transparency group")
        if obj.get("/Subtype") == pikepdf.Name("/Image"):
            filters = obj.get("/Filter")
            filters = [str(f) for f in filters] if isinstance(filters, pikepdf.Array) else [str(filters)]
            space = obj.get("/ColorSpace")
            images.append(f"{space} {int(obj.get('/BitsPerComponent', 0))} {'+'.join(filters)}")
            if space != pikepdf.Name("/DeviceCMYK") or int(obj.get("/BitsPerComponent", 0)) != 8 or filters != ["/DCTDecode"]:
                problems.append(f"image {obj.objgen} is {images[-1]}, not an 8-bit /DeviceCMYK DCT JPEG")
            elif [float(v) for v in obj.get("/Decode", [])] != [1, 0] * 4:
                problems.append(f"image {obj.objgen}: /Decode {obj.get('/Decode')} is not Adobe's inversion")
            elif pikepdf.PdfImage(obj).mode != "CMYK":
                problems.append(f"image {obj.objgen}: its JPEG is not CMYK")
    facts["images"] = images
    facts["allColourSpaces"] = sorted(found)
    for name in found - {"/DeviceCMYK", "/DeviceGray", "/Separation", "/DeviceN", "/Indexed", "/Pattern"}:
        problems.append(f"colour space {name} in the file: PDF/X-1a allows only device CMYK, grey and spot colour")


def check(path, x1a=False):
    problems, facts = [], {}
    with open(path, "rb") as f:
        header = f.read(8)
    facts["header"] = header.decode("latin-1")
    wanted = b"%PDF-1.4" if x1a else b"%PDF-1.6"
    if header != wanted:
        problems.append(f"header is {header!r}, not {wanted.decode()}")
    pdf = pikepdf.open(path)
    facts["version"] = pdf.pdf_version
    if pdf.is_encrypted:
        problems.append("the file is encrypted")

    # The trailer /ID: two byte strings of 16, equal in a file never edited.
    ids = pdf.trailer.get("/ID")
    if ids is None or len(ids) != 2:
        problems.append("no trailer /ID of two strings")
    else:
        first, second = bytes(ids[0]), bytes(ids[1])
        facts["id"] = first.hex()
        if len(first) != 16 or first != second:
            problems.append(f"trailer /ID is {first.hex()} / {second.hex()}: two equal 16-byte strings expected")

    info = pdf.trailer.get("/Info")
    info_text = {str(k)[1:]: str(v) for k, v in info.items()} if info is not None else {}
    facts["info"] = info_text
    if info is None or info.get("/Trapped") != pikepdf.Name("/False"):
        problems.append("Info /Trapped is not the name /False")
    for key in ("Title", "CreationDate", "ModDate"):
        if key not in info_text:
            problems.append(f"Info has no /{key}")

    root = pdf.Root
    for key in ("/OpenAction", "/AA", "/AcroForm", "/Names"):
        if key in root:
            problems.append(f"the catalog has {key}")

    # The output intent.
    intents = [oi for oi in root.get("/OutputIntents", []) if oi.get("/S") == pikepdf.Name("/GTS_PDFX")]
    if len(intents) != 1:
        problems.append(f"{len(intents)} GTS_PDFX output intents, exactly one expected")
    else:
        oi = intents[0]
        facts["outputIntent"] = {str(k)[1:]: str(v) for k, v in oi.items() if k != "/DestOutputProfile"}
        if oi.get("/Type") != pikepdf.Name("/OutputIntent"):
            problems.append("the output intent's /Type is not /OutputIntent")
        identifier = str(oi.get("/OutputConditionIdentifier", ""))
        if not identifier:
            problems.append("the output intent has no /OutputConditionIdentifier")
        if identifier != "Custom" and "/RegistryName" not in oi:
            problems.append("a registered output condition without /RegistryName")
        if "/OutputCondition" not in oi and "/Info" not in oi:
            problems.append("the output intent names no condition in words")
        profile = oi.get("/DestOutputProfile")
        if profile is None:
            problems.append("the output intent has no /DestOutputProfile")
        else:
            data = profile.read_bytes()
            facts["profileBytes"] = len(data)
            facts["profileHeader"] = [data[12:16].decode("latin-1"), data[16:20].decode("latin-1"),
                                      data[36:40].decode("latin-1")]
            if int(profile.get("/N", 0)) != 4:
                problems.append(f"the output profile's /N is {profile.get('/N')}, not 4")
            if data[36:40] != b"acsp" or data[12:16] != b"prtr" or data[16:20] != b"CMYK":
                problems.append(f"the output profile is not a CMYK output profile: {facts['profileHeader']}")
            if int.from_bytes(data[0:4], "big") != len(data):
                problems.append("the output profile's size is not the one its header gives")
            facts["profileSHA"] = __import__("hashlib").sha256(data).hexdigest()

    # The XMP packet, uncompressed, saying what Info says.
    metadata = root.get("/Metadata")
    if metadata is None:
        problems.append("the catalog has no /Metadata")
    else:
        if metadata.get("/Type") != pikepdf.Name("/Metadata") or metadata.get("/Subtype") != pikepdf.Name("/XML"):
            problems.append("/Metadata is not /Type /Metadata /Subtype /XML")
        if "/Filter" in metadata:
            problems.append("the XMP packet is compressed")
        xml = metadata.read_bytes().decode("utf-8")
        tree = ET.fromstring(xml[xml.index("<x:xmpmeta"):xml.index("</x:xmpmeta>") + len("</x:xmpmeta>")])
        desc = tree.find("rdf:RDF/rdf:Description", NS)

        def text(name, inner=None):
            element = desc.find(name, NS)
            if element is not None and inner:
                element = element.find(inner, NS)
            return element.text if element is not None else None

        xmp = {
            "GTS_PDFXVersion": text("pdfxid:GTS_PDFXVersion"),
            "CreateDate": text("xmp:CreateDate"), "ModifyDate": text("xmp:ModifyDate"),
            "MetadataDate": text("xmp:MetadataDate"),
            "DocumentID": text("xmpMM:DocumentID"), "InstanceID": text("xmpMM:InstanceID"),
            "VersionID": text("xmpMM:VersionID"), "RenditionClass": text("xmpMM:RenditionClass"),
            "Trapped": text("pdf:Trapped"), "Producer": text("pdf:Producer"),
            "title": text("dc:title", "rdf:Alt/rdf:li"),
        }
        facts["xmp"] = xmp
        for key, value in xmp.items():
            if not value:
                problems.append(f"XMP has no {key}")
        if xmp["GTS_PDFXVersion"] != ("PDF/X-1a:2003" if x1a else "PDF/X-4"):
            problems.append(f"XMP GTS_PDFXVersion is {xmp['GTS_PDFXVersion']!r}")
        if xmp["Trapped"] != "False":
            problems.append("XMP pdf:Trapped is not False")
        if xmp["title"] != info_text.get("Title"):
            problems.append(f"XMP dc:title {xmp['title']!r} is not Info /Title {info_text.get('Title')!r}")
        if xmp["Producer"] != info_text.get("Producer"):
            problems.append("XMP pdf:Producer is not Info /Producer")
        for info_key, xmp_key in (("CreationDate", "CreateDate"), ("ModDate", "ModifyDate")):
            if pdf_date_to_xmp(info_text.get(info_key, "")) != xmp[xmp_key]:
                problems.append(f"Info /{info_key} {info_text.get(info_key)} is not XMP {xmp_key} {xmp[xmp_key]}")
        if "id" in facts and xmp["DocumentID"] and xmp["DocumentID"].replace("-", "") != "uuid:" + facts["id"]:
            problems.append("XMP DocumentID is not the trailer /ID")

    # Pages: boxes, fonts, colour.
    facts["pages"] = len(pdf.pages)
    fonts, rgb, spaces = set(), [], set()
    for number, page in enumerate(pdf.pages, start=1):
        media, trim, bleed = box(page, "/MediaBox"), box(page, "/TrimBox"), box(page, "/BleedBox")
        if trim is None:
            problems.append(f"page {number} has no TrimBox")
            continue
        if "/ArtBox" in page:
            problems.append(f"page {number} has an ArtBox beside its TrimBox")
        if bleed is not None and not inside(trim, bleed):
            problems.append(f"page {number}: TrimBox {trim} is not inside BleedBox {bleed}")
        if not inside(bleed or trim, media):
            problems.append(f"page {number}: BleedBox {bleed} is not inside MediaBox {media}")
        if "/Annots" in page:
            problems.append(f"page {number} has annotations")
        resources = page.get("/Resources", {})
        for name, font in resources.get("/Font", {}).items():
            descriptors = [d.get("/FontDescriptor") for d in font.get("/DescendantFonts", [])] or [font.get("/FontDescriptor")]
            embedded = all(d is not None and any(k in d for k in ("/FontFile", "/FontFile2", "/FontFile3"))
                           for d in descriptors)
            fonts.add((str(font.get("/BaseFont")), embedded))
            if not embedded:
                problems.append(f"page {number}: font {font.get('/BaseFont')} is not embedded")
        for name, xobject in resources.get("/XObject", {}).items():
            for space in colour_space_names(xobject.get("/ColorSpace")):
                spaces.add(space)
        for space in resources.get("/ColorSpace", {}).values():
            spaces.update(colour_space_names(space))
        for operands, operator in pikepdf.parse_content_stream(page):
            op = str(operator)
            if op in DEVICE_RGB_OPERATORS:
                rgb.append(f"page {number}: {op}")
            if op in ("cs", "CS") and operands and str(operands[0]) == "/DeviceRGB":
                rgb.append(f"page {number}: {op} /DeviceRGB")
            if op in ("g", "G", "k", "K", "cs", "CS", "sc", "scn", "SC", "SCN"):
                spaces.add({"g": "/DeviceGray", "G": "/DeviceGray", "k": "/DeviceCMYK", "K": "/DeviceCMYK"}.get(op, op))
    facts["fonts"] = sorted(f"{n} embedded={e}" for n, e in fonts)
    facts["colourSpaces"] = sorted(spaces)
    if "/DeviceRGB" in spaces:
        rgb.append("an image or colour space in DeviceRGB")
    problems.extend(f"DeviceRGB: {r}" for r in rgb)
    if x1a:
        check_x1a(pdf, problems, facts)
    return {"problems": problems, "facts": facts}


if __name__ == "__main__":
    arguments = sys.argv[1:]
    print(json.dumps(check(arguments[-1], x1a="--x1a" in arguments), indent=1, sort_keys=True))
