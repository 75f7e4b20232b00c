/// The editor's page, built into the binary: each file's name, type and text. The files are Editor/Page/'s, whose
/// bytes SwiftPM writes into code (`.embedInCode` in Package.swift: `PackageResources`), so the binary needs no
/// folder beside it and cannot serve a page other than the one it was built with. The script is four plain scripts
/// that index.html loads in order (editor-requests.js first: it holds what the others share).
enum EditorPage {
    static let files: [String: (type: String, text: String)] = [
        "index.html": ("text/html; charset=utf-8", text(PackageResources.index_html)),
        "editor.css": ("text/css; charset=utf-8", text(PackageResources.editor_css)),
        "editor-requests.js": ("text/javascript; charset=utf-8", text(PackageResources.editor_requests_js)),
        "editor-operations.js": ("text/javascript; charset=utf-8", text(PackageResources.editor_operations_js)),
        "editor-drawing.js": ("text/javascript; charset=utf-8", text(PackageResources.editor_drawing_js)),
        "editor-actions.js": ("text/javascript; charset=utf-8", text(PackageResources.editor_actions_js)),
    ]

    private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
