import Foundation
import Testing
import TestSupport

/// Helpers for the PDF tests: a private temp directory, and the real PDF tools.
enum Tools {
    /// Runs `body` with a fresh directory that is removed afterwards.
    static func withTempDirectory<T>(_ body: (String) throws -> T) throws -> T {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("PDFTests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        return try body(dir)
    }

    struct ToolFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs a command-line tool found on PATH and returns its standard output; a non-zero exit throws, and so
    /// does a complaint of poppler's parser on stderr ("Syntax Warning", "Syntax Error"), which it prints and
    /// then carries on: a file the tools accept only with a complaint is not a file we meant to write.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let printed = try runCapturingErrors(tool, arguments)
        let complaints = printed.errors.split(separator: "\n").filter { $0.hasPrefix("Syntax Warning") || $0.hasPrefix("Syntax Error") }
        guard complaints.isEmpty else {
            throw ToolFailure(description: "\(tool) \(arguments.joined(separator: " ")) complained: \(complaints.joined(separator: "\n"))")
        }
        return printed.output
    }

    /// What a tool printed: its standard output and its standard error.
    struct Printed {
        let output: String
        let errors: String
    }

    /// Runs a command-line tool found on PATH and returns what it printed; a non-zero exit throws.
    static func runCapturingErrors(_ tool: String, _ arguments: [String]) throws -> Printed {
        let result = try ExternalCommand.run(tool, arguments)
        guard result.status == 0, !result.timedOut else {
            throw ToolFailure(description: "\(tool) \(arguments.joined(separator: " ")) exited \(result.status): "
                              + "\(result.stderrText)\(result.stdoutText.prefix(2000))")
        }
        return Printed(output: result.stdoutText, errors: result.stderrText)
    }

    /// `pdfinfo` as key/value pairs ("Pages" -> "2"); values are UTF-8.
    static func pdfinfo(_ pdf: String, _ extra: [String] = []) throws -> [String: String] {
        var info: [String: String] = [:]
        for line in try run("pdfinfo", ["-enc", "UTF-8"] + extra + [pdf]).split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = String(line[..<colon])
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            info[key] = value
        }
        return info
    }

    /// One row of `pdfimages -list`.
    struct ListedImage: Equatable {
        var page: Int, width: Int, height: Int, color: String, components: Int, encoding: String, object: Int
    }

    static func pdfimagesList(_ pdf: String) throws -> [ListedImage] {
        try run("pdfimages", ["-list", pdf]).split(separator: "\n").dropFirst(2).map { line in
            let f = line.split(separator: " ").map(String.init)
            return ListedImage(
                page: Int(f[0])!, width: Int(f[3])!, height: Int(f[4])!, color: f[5], components: Int(f[6])!,
                encoding: f[8], object: Int(f[10])!)
        }
    }

    /// True when `qpdf --check` passes and reports no errors.
    static func qpdfCheck(_ pdf: String) throws -> Bool {
        try run("qpdf", ["--check", pdf]).contains("No syntax or stream encoding errors found")
    }

    /// Renders one page with poppler's cairo back end (`pdftocairo`) at `dpi` and returns its pixels.
    ///
    /// Not `pdftoppm`: its Splash rasteriser paints images one pixel wider and taller (right and bottom
    /// edges), which would hide exactly the off-by-one placement errors these tests look for.
    static func render(_ pdf: String, page: Int = 1, dpi: Int = 72) throws -> RGBRaster {
        let prefix = pdf + "-render-\(page)"
        try run("pdftocairo", ["-png", "-r", "\(dpi)", "-f", "\(page)", "-l", "\(page)", "-singlefile", pdf, prefix])
        try run("convert", [prefix + ".png", "-alpha", "off", "-depth", "8", prefix + ".ppm"])
        return try RGBRaster(ppm: Fixtures.read(prefix + ".ppm"))
    }

    /// Makes a JPEG with ImageMagick, e.g. `["-size", "80x40", "xc:red"]`.
    static func makeJPEG(_ arguments: [String], in dir: String, name: String) throws -> [UInt8] {
        let path = dir + "/" + name
        try run("convert", arguments + ["-quality", "95", path])
        return try Fixtures.read(path)
    }
}

/// An 8-bit RGB raster read from a binary PPM (P6), top row first.
struct RGBRaster {
    let width: Int, height: Int
    let pixels: [UInt8]

    init(ppm: [UInt8]) throws {
        (width, height, pixels) = try PPM.parse(ppm)
    }

    subscript(x: Int, y: Int) -> (r: Int, g: Int, b: Int) {
        let i = (y * width + x) * 3
        return (Int(pixels[i]), Int(pixels[i + 1]), Int(pixels[i + 2]))
    }

    /// Mean absolute difference per channel sample, 0...255.
    func meanDifference(to other: RGBRaster) -> Double {
        precondition(width == other.width && height == other.height, "rasters differ in size")
        return meanAbsoluteDifference(pixels, other.pixels)
    }
}
