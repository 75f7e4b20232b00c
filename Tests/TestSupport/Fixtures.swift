import Foundation

/// Where the package and its committed fixtures are, found from this file's path, so tests run from any folder.
package enum Fixtures {
    /// The package root (this file is Tests/TestSupport/Fixtures.swift).
    package static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The path of `relative` under Fixtures/, e.g. "exif-orientation/Landscape_1.jpg".
    package static func path(_ relative: String) -> String {
        packageRoot.appendingPathComponent("Fixtures").appendingPathComponent(relative).path
    }

    /// The bytes of a fixture.
    package static func bytes(_ relative: String) throws -> [UInt8] {
        try read(path(relative))
    }

    /// The bytes of any file.
    package static func read(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
