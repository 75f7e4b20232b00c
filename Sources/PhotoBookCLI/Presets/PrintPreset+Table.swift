import PhotoBook

/// Every preset's figures, each with the address it was read at (docs/presets.md gives the words). A service's
/// own page is the source wherever one was found; where only a third party's account of the service's rule was
/// found, `published` says so.
extension PrintPreset {
    private static let inch = 72.0
    private static let mm = Length.pointsPerMillimetre

    // Lulu: bleed and safety margin for every interior, the trim sizes Lulu lists for photo books and workbooks,
    // sRGB for colour interiors, and the paperback's fewest pages from Lulu's Spine Width Calculator (a copy of the
    // PDF; Lulu's help pages stored do not give it). The presets are paperbacks: a hardcover binds from 24 pages.
    private static let luluBleedPage =
        "https://help.lulu.com/en/support/solutions/articles/64000255584-how-do-i-make-my-content-cover-the-whole-page-what-is-bleed"
    private static let luluSizesPage = "https://blog.lulu.com/choosing-the-right-book-size/"
    private static let luluColourPage =
        "https://help.lulu.com/en/support/solutions/articles/64000255590-interior-formatting-faq"
    private static let luluPagesPage = "https://www.scribd.com/document/513281500/lulu-spine-width-calculator"

    private static func lulu(_ name: String, _ product: String, _ size: PageSize, published: String) -> PrintPreset {
        PrintPreset(name: name, service: "Lulu", product: product, owner: "Lulu's paperbacks",
                    trim: Figure(value: size, published: published, source: luluSizesPage),
                    bleed: Figure(value: 0.125 * inch, published: "0.125 in (3.18 mm) on every side", source: luluBleedPage),
                    safety: Figure(value: 0.5 * inch, published: "0.5 in (12.7 mm) inside the trim edge", source: luluBleedPage),
                    minimumPages: Figure(value: 32, published: "Paperback covers ... require a minimum of 32 pages; "
                                         + "all Hardcovers ... a minimum of 24 pages (Lulu's Spine Width Calculator, a "
                                         + "copy)", source: luluPagesPage),
                    colour: Figure(value: "sRGB", published: "full colour books: our printers use sRGB", source: luluColourPage),
                    notes: ["Lulu asks for no crop marks or registration marks: leave --crop-marks off",
                            "the preset checks a paperback's 32 pages: a Lulu hardcover binds from 24, so leave "
                            + "--strict off for a hardcover of 24 to 31 pages"],
                    refusesCropMarks: luluBleedPage)
    }

    // Blurb: the page-count rules for every Blurb book; the safe distance from the trim line. Blurb's trim sizes
    // and bleed were not found on a page of Blurb's own, so these presets set no page size and no bleed.
    private static let blurbPagesPage =
        "https://support.blurb.com/hc/en-us/articles/207794816-How-pages-are-counted-in-a-Blurb-book"
    private static let blurbTrimPage =
        "https://support.blurb.com/hc/en-us/articles/115001494183-PDF-Uploader-Preview-Trim-Guides"

    private static func blurb(_ name: String, _ product: String, owner: String, maximum: Int, published: String) -> PrintPreset {
        PrintPreset(name: name, service: "Blurb", product: product, owner: owner, trim: nil, bleed: nil,
                    safety: Figure(value: 0.25 * inch, published: "important content at least 1/4 inch from the trim line",
                                   source: blurbTrimPage),
                    minimumPages: Figure(value: 20, published: "a minimum page count of 20 pages (10 fronts and 10 backs)",
                                         source: blurbPagesPage),
                    maximumPages: Figure(value: maximum, published: published, source: blurbPagesPage),
                    notes: ["Blurb's trim sizes and bleed were not found published: give --page-size and --bleed "
                            + "from your book's Blurb template"])
    }

    // IngramSpark: its help pages and blog, and two accounts of its File Creation Guide (not stored itself).
    private static let ingramFilesPage = "https://www.ingramspark.com/blog/file-requirements-for-print-books"
    private static let ingramColourPage =
        "https://help.ingramspark.com/hc/en-us/articles/5338619119245-Creating-and-Designing-Print-Ready-Digital-Files-for-Your-Book"
    private static let ingramMinimumPage = "https://selfpublish.org/html/ingramSparkFAQ"
    private static let ingramPDFXPage =
        "https://www.selfpublishingreview.com/2016/03/how-to-fix-your-ingram-spark-pdf-with-free-pdf-fix-download/"

    // KDP: colour options from its Print Options page; page counts and margins from third parties' accounts of it.
    // Trap: KDP's bleed is on the top, bottom and outside edges only (the page 0.125 in wider and 0.25 in taller
    // than the trim); photobook's bleed goes round all four, so a KDP preset sets none.
    private static let kdpOptionsPage = "https://kdp.amazon.com/en_US/help/topic/G201834180"
    private static let kdpGuidelinesPage = "https://kdp.amazon.com/en_US/help/topic/G201857950"
    private static let kdpPagesPage =
        "http://bookbolt.kb.help/kdp-publishing-what-is-the-minimum-maximum-number-of-pages-you-can-use-in-a-book-and-the-royalty-amount/"
    private static let kdpMarginsPage = "https://aiwritebook.com/en/blog/how-to-format-book-for-kdp/"

    private static func kdp(_ name: String, _ product: String, _ size: PageSize, published: String) -> PrintPreset {
        PrintPreset(name: name, service: "Amazon KDP", product: "\(product) paperback, premium colour",
                    owner: "KDP's premium-colour \(product) paperbacks",
                    trim: Figure(value: size, published: published, source: kdpPagesPage), bleed: nil,
                    safety: Figure(value: 0.25 * inch, published: "outside, top and bottom margins at least 0.25 inches "
                                   + "without bleed (a third party's account of KDP's rule)", source: kdpMarginsPage),
                    minimumPages: Figure(value: 24, published: "the minimum for premium color ink on premium white paper "
                                         + "is 24 pages (a third party's account)", source: kdpPagesPage),
                    maximumPages: Figure(value: 590, published: "\(published): the maximum is 590 pages, premium color "
                                         + "(a third party's account)", source: kdpPagesPage),
                    colour: Figure(value: "premium colour ink", published: "Premium color ink and 60-71 pound (88-105 "
                                   + "GSM) white paper", source: kdpOptionsPage),
                    fileSize: Figure(value: 650_000_000, published: "Ensure file size is not more than 650MB",
                                     source: kdpGuidelinesPage),
                    notes: ["KDP widens the inside margin with the page count (0.375 in to 150 pages, 0.5 in to 300, "
                            + "0.625 in to 500, 0.75 in to 700): add --binding as your book needs (\(kdpMarginsPage))",
                            "KDP's bleed is on three edges only, photobook's on four: the preset sets no bleed",
                            "KDP asks for no crop marks or trim marks: leave --crop-marks off"],
                    refusesCropMarks: kdpGuidelinesPage)
    }

    // Prodigi: hardcover photo books, sizes and page range from its technical guide; no bleed or safety found.
    private static let prodigiPage = "https://www.prodigi.com/blog/photo-books-technical-guide"

    private static func prodigi(_ name: String, _ side: Double, published: String) -> PrintPreset {
        PrintPreset(name: name, service: "Prodigi", product: "hardcover photo book, \(published)",
                    owner: "Prodigi's hardcover photo books",
                    trim: Figure(value: PageSize(width: side * inch, height: side * inch), published: published,
                                 source: prodigiPage), bleed: nil, safety: nil,
                    minimumPages: Figure(value: 24, published: "Pages: 24-300 pages", source: prodigiPage),
                    maximumPages: Figure(value: 300, published: "Pages: 24-300 pages", source: prodigiPage),
                    notes: ["Prodigi's bleed and safe area were not found published: give --bleed and --safety"])
    }

    // Jukebox Print: saddle-stitched booklets, with every figure on one page.
    private static let jukeboxBookletPage = "https://www.jukeboxprint.com/explore-saddle-stitched-booklets"

    // Mixam: the hardcover set-up guide gives the case wrap (hinge and turn-in) and its A4 worked example.
    private static let mixamHardcoverPage = "https://mixam.com.au/support/hardcoversetup"

    /// Every preset, in the order `photobook presets` lists them.
    static let all: [PrintPreset] = [
        lulu("lulu-a4", "A4 paperback", PageSize(width: 210 * mm, height: 297 * mm), published: "A4 (8.27 x 11.69 in / 210 x 297 mm)"),
        lulu("lulu-us-letter", "US Letter paperback", PageSize(width: 8.5 * inch, height: 11 * inch),
             published: "US Letter (8.5 x 11 in / 216 x 279 mm)"),
        lulu("lulu-square", "Square paperback (photo books)", PageSize(width: 8.5 * inch, height: 8.5 * inch),
             published: "Square (8.5 x 8.5 in / 216 x 216 mm)"),
        lulu("lulu-us-letter-landscape", "US Letter Landscape paperback (photo books)",
             PageSize(width: 11 * inch, height: 8.5 * inch), published: "US Letter Landscape (11 x 8.5 in / 279 x 216 mm)"),
        lulu("lulu-small-landscape", "Small Landscape paperback (photo books)", PageSize(width: 9 * inch, height: 7 * inch),
             published: "Small Landscape (9 x 7 in / 229 x 178 mm)"),
        blurb("blurb-photo-book", "photo book, standard paper", owner: "Blurb's photo books", maximum: 440,
              published: "up to 440 pages with standard paper"),
        blurb("blurb-photo-book-heavy-paper", "photo book, heavier paper", owner: "Blurb's books on heavier papers",
              maximum: 240, published: "up to 240 pages with our heavier papers"),
        blurb("blurb-layflat", "layflat photo book", owner: "Blurb's layflat books", maximum: 110,
              published: "110 pages for Layflat books"),
        PrintPreset(name: "ingramspark", service: "IngramSpark", product: "any binding", owner: "IngramSpark's books",
                    trim: nil,
                    bleed: Figure(value: 0.125 * inch, published: "images that fill the page must extend .125 inches "
                                  + "beyond it (an author's account of the File Creation Guide)",
                                  source: "https://www.doukat.com/blog/2019/7/30/bleed-lines-and-trim-lines-for-my-childrens-picture-book"),
                    safety: Figure(value: 0.5 * inch, published: "margins a minimum of 0.5\" (13mm) from final trim size "
                                   + "on all sides", source: ingramFilesPage),
                    minimumPages: Figure(value: 18, published: "a minimum page count requirement of 18 pages for all "
                                         + "print titles regardless of the binding (IngramSpark's answer, as quoted)",
                                         source: ingramMinimumPage),
                    pdfx: Figure(value: "PDF/X of 2001 or 2003", published: "must be PDF/X 2001 or 2003 (an "
                                 + "account of the File Creation Guide)", source: ingramPDFXPage),
                    colour: Figure(value: "CMYK", published: "IngramSpark requires that files be submitted in CMYK",
                                   source: ingramColourPage),
                    // "PDF/X 2001 or 2003" in CMYK: PDF/X-1a:2003 is the 2003 CMYK level (docs/presets.md).
                    writesPDFX: .x1a,
                    notes: ["IngramSpark's trim sizes were not found published outside its File Creation Guide: give "
                            + "--page-size", "the final page should be blank (IngramSpark adds one if it is not)",
                            "no crop, registration or printer marks: leave --crop-marks off"],
                    refusesCropMarks: ingramFilesPage),
        kdp("kdp-paperback-square", "8.5 x 8.5 in", PageSize(width: 8.5 * inch, height: 8.5 * inch),
            published: "8.5\" x 8.5\""),
        kdp("kdp-paperback-letter", "8.5 x 11 in", PageSize(width: 8.5 * inch, height: 11 * inch),
            published: "8.5\" x 11\""),
        PrintPreset(name: "mixam-hardcover-a4", service: "Mixam", product: "hardcover book, A4", owner: "Mixam's hardcovers",
                    trim: Figure(value: PageSize(width: 210 * mm, height: 297 * mm),
                                 published: "Example: A4 book with a 9mm spine: 210mm + 5mm + 9mm + 5mm + 210mm x 297mm",
                                 source: mixamHardcoverPage),
                    bleed: nil, safety: nil,
                    caseWrap: Figure(value: 20 * mm, published: "add 20mm bleed on all four edges of the spread",
                                     source: mixamHardcoverPage),
                    caseHinge: Figure(value: 5 * mm, published: "the spine width plus an additional 5mm on both sides "
                                      + "of the spine to allow for the hinge", source: mixamHardcoverPage),
                    notes: ["for the case wrap: photobook cover --preset mixam-hardcover-a4 (the hinges and the 20 mm "
                            + "wrap); the pages' bleed and safety margin were not found on the same page: give --bleed "
                            + "and --safety", "Mixam keeps the cover's text 8 mm from the board edges (3 mm overhang "
                            + "and a 5 mm quiet area): the cover's default --safety of 10 mm keeps more"]),
        prodigi("prodigi-hardcover-9x9", 9, published: "9x9\""),
        prodigi("prodigi-hardcover-12x12", 12, published: "12x12\""),
        PrintPreset(name: "jukebox-booklet-letter", service: "Jukebox Print", product: "saddle-stitched booklet, 8.5 x 11 in",
                    owner: "Jukebox's saddle-stitched booklets",
                    trim: Figure(value: PageSize(width: 8.5 * inch, height: 11 * inch),
                                 published: "8.5 x 11 in booklet", source: jukeboxBookletPage),
                    bleed: Figure(value: 0.125 * inch, published: "0.125 in", source: jukeboxBookletPage),
                    safety: Figure(value: 0.125 * inch, published: "0.125 in (inside safety margin)",
                                   source: jukeboxBookletPage),
                    pageStep: Figure(value: 4, published: "a multiple of 4 (the cover's four pages included)",
                                     source: jukeboxBookletPage),
                    notes: ["Jukebox asks for 0.5 in from the spine side: add --binding if your pages need it",
                            "the four cover pages are pages of the same PDF"]),
    ]
}
