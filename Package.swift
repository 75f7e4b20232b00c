// swift-tools-version:6.2
import PackageDescription

// Layers point one way: photobook -> PhotoBookCLI -> PhotoBook -> Imaging, EXIF, JPEG, PNG, PDF -> C modules;
// Geometry (one rectangle) is under Imaging, PDF and PhotoBook.
// Only the codec modules (JPEG, PNG, HEIF, WebP, TIFF, Raw, GIF, JXL, JPEG2000), Colour, Typeface, FontCatalog, TextBreaks, PDF and HTTPServer import a C module; libc is imported by Platform (PDF, PhotoBook, PhotoBookCLI -> Platform), by HTTPServer for its socket address, by Raw for localtime_r and by the editor for flock (docs/modules.md).
//
// Release builds keep Swift's overflow and bounds checks in every module but Imaging, so that an arithmetic
// slip on hostile input traps instead of corrupting memory. Imaging's resampling kernels take ~8% more CPU
// with them (`make bench`), and they read only sizes checked at each kernel's entry with `guarantee`, which
// -Ounchecked keeps (`precondition` it drops): anything added to Imaging must check its bounds the same way.
// mk/fuzz.mk reads these settings, so the fuzzers are built as the shipped binary is.
let uncheckedInRelease: [SwiftSetting] = [.unsafeFlags(["-Ounchecked"], .when(configuration: .release))]

let package = Package(
    name: "photobook",
    products: [
        .executable(name: "photobook", targets: ["photobook"]),
    ],
    targets: [
        // The C side: one system-library module per Debian library, and C shims where setjmp is unavoidable.
        .systemLibrary(name: "CJPEG", path: "Sources/CJPEG"),
        .systemLibrary(name: "CPNG", path: "Sources/CPNG", pkgConfig: "libpng16"),
        .systemLibrary(name: "CHaru", path: "Sources/CHaru"),
        .systemLibrary(name: "CHEIF", path: "Sources/CHEIF", pkgConfig: "libheif"),
        .systemLibrary(name: "CWebP", path: "Sources/CWebP", pkgConfig: "libwebpdemux"),
        .systemLibrary(name: "CTIFF", path: "Sources/CTIFF", pkgConfig: "libtiff-4"),
        .systemLibrary(name: "CGIF", path: "Sources/CGIF", pkgConfig: "libgif"),
        .systemLibrary(name: "CLCMS", path: "Sources/CLCMS", pkgConfig: "lcms2"),
        // LibRaw (libraw-dev), the thread-safe libraw_r, linked by name (shim.h says why).
        .systemLibrary(name: "CRaw", path: "Sources/CRaw"),
        // No pkgConfig: libjxl.pc adds -DHWY_SHARED_DEFINE, a flag SwiftPM refuses with a warning (headers are in /usr/include).
        .systemLibrary(name: "CJXL", path: "Sources/CJXL"),
        .systemLibrary(name: "COpenJPEG", path: "Sources/COpenJPEG", pkgConfig: "libopenjp2"),
        // HarfBuzz and its subsetter (libharfbuzz-dev): fonts read, measured and subset for embedding.
        .systemLibrary(name: "CHarfBuzz", path: "Sources/CHarfBuzz", pkgConfig: "harfbuzz-subset"),
        // fontconfig (libfontconfig-dev): the installed fonts, for `--font FAMILY` and the faces text falls back to.
        .systemLibrary(name: "CFontconfig", path: "Sources/CFontconfig", pkgConfig: "fontconfig"),
        // libmicrohttpd (libmicrohttpd-dev): the HTTP server under `photobook edit`.
        .systemLibrary(name: "CMicroHTTPD", path: "Sources/CMicroHTTPD", pkgConfig: "libmicrohttpd",
                       providers: [.apt(["libmicrohttpd-dev"])]),
        .target(name: "CJPEGShim", dependencies: ["CJPEG"], path: "Sources/CJPEGShim"),
        // libtiff's error and warning handlers take a va_list: formatted in C, handed to Swift as text.
        .target(name: "CTIFFShim", dependencies: ["CTIFF"], path: "Sources/CTIFFShim"),
        // libheif decoder plugins of our own: HEVC through libavcodec (faster than libheif's libde265), AV1
        // through dav1d with one thread (libheif's own plugin takes one a CPU).
        .target(name: "CHEIFDecoders", dependencies: ["CHEIF"], path: "Sources/CHEIFDecoders",
                linkerSettings: [.linkedLibrary("avcodec"), .linkedLibrary("avutil"), .linkedLibrary("dav1d")]),
        // zlib for CPNGShim too: a PNG's iCCP profile is inflated by us (libpng is told to skip the chunk).
        .target(name: "CPNGShim", dependencies: ["CPNG", "CZlib"], path: "Sources/CPNGShim"),
        // zlib, for the benchmark's corpus tool; the shim turns zlib's deflateInit2 macro into a function.
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib"),
        .target(name: "CZlibShim", dependencies: ["CZlib"], path: "Sources/CZlibShim"),
        // ICU (libicu-dev) behind a plain C header: Swift cannot import ICU's headers next to Foundation, whose own
        // ICU clashes with them (docs/research/words.md §3), so only CICUShim's .c files include them.
        // LibRaw reading photobook's open file through a stream of ours (C++: LibRaw's C API can only open a path).
        .target(name: "CRawStream", path: "Sources/CRawStream", linkerSettings: [.linkedLibrary("raw_r")]),
        .target(name: "CICUShim", path: "Sources/CICUShim", linkerSettings: [.linkedLibrary("icuuc")]),

        // Typed Swift over each C library, and the pure-Swift pieces.
        // The one rectangle of the package: page geometry in points and crops in a photo's pixels, shared by
        // Imaging, PDF and the book's plan without their depending on one another.
        .target(name: "Geometry"),
        .target(name: "Imaging", dependencies: ["Geometry"], swiftSettings: uncheckedInRelease),
        .target(name: "EXIF"),
        // The one interface every format is reached through (probe, decode a region at a scale), and what
        // several codecs share: byte sources, the header read, shrinking rows as they come.
        .target(name: "ImageCodec", dependencies: ["Geometry", "Imaging", "EXIF", "Platform"]),
        // Little CMS: colour conversion through ICC profiles, and profiles made from a colour description.
        .target(name: "Colour", dependencies: ["CLCMS"]),
        .target(name: "JPEG", dependencies: ["CJPEGShim", "Geometry", "Imaging", "ImageCodec", "EXIF", "Colour", "Platform"]),
        .target(name: "PNG", dependencies: ["CPNGShim", "Geometry", "Imaging", "ImageCodec", "Platform"]),
        .target(name: "HEIF", dependencies: ["CHEIF", "CHEIFDecoders", "Imaging", "ImageCodec", "Colour", "Platform"]),
        .target(name: "WebP", dependencies: ["CWebP", "Geometry", "Imaging", "ImageCodec"]),
        .target(name: "TIFF", dependencies: ["CTIFF", "CTIFFShim", "Imaging", "ImageCodec", "Colour", "EXIF"]),
        .target(name: "GIF", dependencies: ["CGIF", "Geometry", "Imaging", "ImageCodec"]),
        // BMP is read by our own Swift (Debian has no small maintained BMP library): every size and offset checked.
        .target(name: "BMP", dependencies: ["Geometry", "Imaging", "ImageCodec"]),
        // Camera raw through LibRaw; the JPEG module decodes a raw's embedded preview.
        .target(name: "Raw", dependencies: ["CRaw", "CRawStream", "Geometry", "Imaging", "ImageCodec", "EXIF", "JPEG"]),
        .target(name: "JXL", dependencies: ["CJXL", "Geometry", "Imaging", "ImageCodec"]),
        .target(name: "JPEG2000", dependencies: ["COpenJPEG", "Geometry", "Imaging", "ImageCodec"]),
        // A font face through HarfBuzz: character map, advances, metrics, names, subsets. Its API has no C type
        // (CHarfBuzz is an internal import), so PDF gets glyph ids and bytes, never HarfBuzz.
        .target(name: "Typeface", dependencies: ["CHarfBuzz"]),
        // A family name to the installed face fontconfig has under it, as a path (CFontconfig is an internal
        // import). Apart from Typeface: reading a font file needs no fontconfig, and finding one needs no HarfBuzz.
        .target(name: "FontCatalog", dependencies: ["CFontconfig"]),
        // Which installed face draws each run of a text, by script and language (issue 33): pure Swift over
        // Typeface (scripts, character maps) and FontCatalog (faces by family, fontconfig's sorted fallbacks).
        .target(name: "Words", dependencies: ["Typeface", "FontCatalog"]),
        // The Unicode bidi algorithm and UAX #14 line breaks of a caption, by ICU through CICUShim: runs in visual
        // order and where lines may start, in scalar offsets. Pure Swift, no Foundation; works in a process with it.
        .target(name: "TextBreaks", dependencies: ["CICUShim"]),
        // Platform: an image stream read from its file at save time (PDFDocument+FileImage.swift).
        // Typeface: the fonts drawn, behind PDF's own PDFFontProgram protocol.
        .target(name: "PDF", dependencies: ["CHaru", "Geometry", "Platform", "Typeface"]),
        // The POSIX calls of the engine and the command line: EINTR, errno and closing descriptors in one place.
        .target(name: "Platform"),
        // The editor's local HTTP server over libmicrohttpd (CMicroHTTPD is an internal import): 127.0.0.1 only,
        // and the token, Host, method and body checks made before any handler runs (docs/editor.md).
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD", "Platform"]),

        // The engine, the command line, and the thin executable.
        .target(name: "PhotoBook", dependencies: ["Platform", "Geometry", "Imaging", "EXIF", "ImageCodec", "JPEG", "PNG", "HEIF",
                                                  "WebP", "TIFF", "GIF", "BMP", "Raw", "JXL", "JPEG2000", "PDF", "Colour", "Typeface", "Words", "TextBreaks"]),
        // The editor's page is built into the binary (EditorPage.swift): SwiftPM writes each file's bytes into code.
        .target(name: "PhotoBookCLI", dependencies: ["PhotoBook", "Geometry", "Platform", "FontCatalog", "Words", "HTTPServer"],
                resources: [.embedInCode("Editor/Page/index.html"), .embedInCode("Editor/Page/editor.css"),
                            .embedInCode("Editor/Page/editor-requests.js"), .embedInCode("Editor/Page/editor-operations.js"),
                            .embedInCode("Editor/Page/editor-drawing.js"), .embedInCode("Editor/Page/editor-actions.js")]),
        .executableTarget(name: "photobook", dependencies: ["PhotoBookCLI"]),
        // photobook with the test and benchmark switches (PHOTOBOOK_TEST_PAUSE...), which the shipped binary
        // does not have: for the end-to-end tests and `make bench` only, never installed.
        .executableTarget(name: "photobook-harness", dependencies: ["PhotoBookCLI", "Platform"]),
        .executableTarget(name: "photobook-corpus", dependencies: ["JPEG", "Imaging", "EXIF", "CZlib", "CZlibShim"]),

        // What several test targets need once: fixtures, checksums, file forgers, reference-tool runners.
        .target(name: "TestSupport", dependencies: ["ImageCodec", "Imaging"], path: "Tests/TestSupport"),
        .testTarget(name: "ImagingTests", dependencies: ["Imaging", "Geometry", "TestSupport"]),
        .testTarget(name: "EXIFTests", dependencies: ["EXIF", "TestSupport"]),
        .testTarget(name: "JPEGTests", dependencies: ["JPEG", "Geometry", "Imaging", "TestSupport"]),
        .testTarget(name: "PNGTests", dependencies: ["PNG", "Imaging", "TestSupport"], exclude: ["Reference"]),
        .testTarget(name: "ImageCodecTests", dependencies: ["ImageCodec", "Imaging", "Geometry", "TestSupport"]),
        .testTarget(name: "ColourTests", dependencies: ["Colour", "TestSupport"]),
        .testTarget(name: "HEIFTests", dependencies: ["HEIF", "Geometry", "ImageCodec", "Imaging", "TestSupport"]),
        .testTarget(name: "WebPTests", dependencies: ["WebP", "ImageCodec", "Imaging", "Geometry", "TestSupport"]),
        .testTarget(name: "GIFTests", dependencies: ["GIF", "ImageCodec", "Imaging", "Geometry", "TestSupport"]),
        .testTarget(name: "BMPTests", dependencies: ["BMP", "ImageCodec", "Imaging", "Geometry", "TestSupport"]),
        .testTarget(name: "RawTests", dependencies: ["Raw", "ImageCodec", "Imaging", "Geometry", "JPEG", "TestSupport"]),
        .testTarget(name: "JXLTests", dependencies: ["JXL", "ImageCodec", "Imaging", "Geometry", "TestSupport"]),
        .testTarget(name: "JPEG2000Tests", dependencies: ["JPEG2000", "ImageCodec", "Imaging", "Geometry", "TestSupport"]),
        .testTarget(name: "TIFFTests", dependencies: ["TIFF", "ImageCodec", "Imaging", "Geometry", "Platform", "TestSupport"]),
        .testTarget(name: "PDFTests", dependencies: ["PDF", "Typeface", "JPEG", "Imaging", "Geometry", "TestSupport"]),
        .testTarget(name: "PlatformTests", dependencies: ["Platform"]),
        // A real server on a free port, spoken to in raw HTTP over a socket.
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "TestSupport"]),
        // Against the fonts installed here (make test installs fonts-noto-cjk, fonts-wqy-zenhei...).
        // Shaping against hb-shape (libharfbuzz-bin, make test-deps) on the Noto and DejaVu fonts installed here.
        .testTarget(name: "TypefaceTests", dependencies: ["Typeface", "TestSupport"]),
        .testTarget(name: "WordsTests", dependencies: ["Words", "Typeface", "FontCatalog"]),
        // Against FriBidi's fribidi(1) (make test-deps installs libfribidi-bin) as the independent bidi reference.
        .testTarget(name: "TextBreaksTests", dependencies: ["TextBreaks", "CICUShim", "TestSupport"]),
        .testTarget(name: "PhotoBookTests",
                    dependencies: ["PhotoBook", "Platform", "Geometry", "Imaging", "ImageCodec", "JPEG", "TestSupport"]),
        .testTarget(name: "PhotoBookCLITests",
                    dependencies: ["photobook", "PhotoBookCLI", "Geometry", "JPEG", "PNG", "Imaging", "TestSupport"],
                    exclude: ["Reference"]),
    ],
    swiftLanguageModes: [.v6]
)

// A warning fails the build, in every configuration and in every target added later (.ci/run builds release,
// the tests and the sanitizer runs; mk/fuzz.mk reads this too). Fix it, or silence one call with a reason.
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [.treatAllWarnings(as: .error)]
    target.cSettings = (target.cSettings ?? []) + [.treatAllWarnings(as: .error)]
}
