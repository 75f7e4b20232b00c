/// The editor's page, built into the binary: each file's name, type and text. The files are Editor/Page/'s, whose
/// bytes SwiftPM writes into code (`.embedInCode` in Package.swift: `PackageResources`), so the binary needs no
/// folder beside it and cannot serve a page other than the one it was built with.
enum EditorPage {
    static let files: [String: (type: String, text: String)] = [
        "index.html": ("text/html; charset=utf-8", String(decoding: PackageResources.index_html, as: UTF8.self)),
        "editor.js": ("text/javascript; charset=utf-8", String(decoding: PackageResources.editor_js, as: UTF8.self)),
        "editor.css": ("text/css; charset=utf-8", String(decoding: PackageResources.editor_css, as: UTF8.self)),
    ]
}
