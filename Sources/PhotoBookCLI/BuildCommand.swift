import Foundation
import PhotoBook

/// `photobook build INPUT... -o OUT [options]`: the options as typed, checked, with the help that lists them.
struct BuildCommand {
    var inputs: [String] = []
    var output: String?
    var recursive = false
    var options = BuildOptions()
    var quiet = false
    var verbose = false
    var help = false

    static let defaultJobs = ProcessInfo.processInfo.activeProcessorCount

    static var help: String {
        """
        Usage: photobook build INPUT... -o OUTPUT.pdf [options]

        Makes a print-ready PDF photo book, one photo per page, from folders and files of JPEG and PNG photos.
        Folders are read in natural name order (img2 before img10), files in the order given; images are
        recognised by their content, other files are skipped. The book is written atomically: OUTPUT is replaced
        only when the whole book is ready, and Ctrl-C leaves it untouched.

        Options:
          -o, --output PATH       the PDF to write (required)
          -r, --recursive         include photos in subfolders (default: off)
              --page-size SIZE    a3, a4, a5, letter, legal, or WxH with a unit mm, cm, in or pt,
                                  e.g. 200x200mm or 8x10in (default: a4, portrait)
              --margin LENGTH     blank border on every side, e.g. 10mm, 1cm, 0.5in, 12pt;
                                  a bare number is millimetres (default: 10mm)
              --dpi N             target density of the printed photos, pixels per inch;
                                  photos are never upsampled (default: 300)
              --fit MODE          fill: cover the area inside the margins, cropping the overflow
                                  from the centre; fit: show the whole photo (default: fill)
              --quality N         JPEG quality of the embedded photos, 1-100 (default: 90)
              --keep-originals    never resample: embed JPEG photos byte for byte (orientation and crop
                                  are applied by the page, not to the pixels) (default: off)
          -j, --jobs N            photos worked on at once (default: the number of cores, here \(defaultJobs))
              --max-pixels N      refuse images whose header declares more pixels (default: 100000000)
              --strict            if any photo cannot be used, write nothing and fail (default: off,
                                  such photos are left out with a warning)
          -q, --quiet             print errors only (default: off)
          -v, --verbose           also report skipped files and each photo's density (default: off)
          -h, --help              show this help

        Exit status: 0 book written, 1 build failed, 2 usage error, 130 interrupted (nothing written).
        """
    }

    /// Parses the arguments after `build`.
    static func parse(_ arguments: [String]) throws(CLIError) -> BuildCommand {
        var command = BuildCommand()
        var rest = arguments[...]
        var onlyInputs = false
        while let argument = rest.popFirst() {
            if onlyInputs || !argument.hasPrefix("-") || argument == "-" {
                command.inputs.append(argument)
                continue
            }
            // "--name=value" is the same as "--name value".
            var name = argument, attached: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                attached = String(argument[argument.index(after: equals)...])
            }
            func value() throws(CLIError) -> String {
                if let attached { return attached }
                guard let next = rest.popFirst() else { throw .usage("option '\(name)' needs a value") }
                return next
            }
            func flag() throws(CLIError) {
                if attached != nil { throw .usage("option '\(name)' takes no value") }
            }
            switch name {
            case "--": onlyInputs = true
            case "-o", "--output": command.output = try value()
            case "-r", "--recursive": try flag(); command.recursive = true
            case "--page-size":
                let text = try value()
                guard let size = PageSize(parsing: text) else {
                    throw .usage("invalid page size '\(text)': use a3, a4, a5, letter, legal or WxH with mm, cm, in or pt (e.g. 200x200mm)")
                }
                command.options.layout.pageSize = size
            case "--margin":
                let text = try value()
                guard let margin = Length.points(parsing: text) else {
                    throw .usage("invalid margin '\(text)': use a length such as 10mm, 1cm, 0.5in or 12pt")
                }
                command.options.layout.margin = margin
            case "--dpi":
                command.options.layout.dpi = Double(try integer(try value(), name: name, range: 10...2400))
            case "--fit":
                let text = try value()
                guard let fit = FitMode(rawValue: text.lowercased()) else {
                    throw .usage("invalid value '\(text)' for --fit: use fill or fit")
                }
                command.options.layout.fit = fit
            case "--quality": command.options.quality = try integer(try value(), name: name, range: 1...100)
            case "-j", "--jobs": command.options.jobs = try integer(try value(), name: name, range: 1...256)
            case "--max-pixels":
                command.options.maxPixels = try integer(try value(), name: name, range: 1...Int(Int32.max) * 4)
            case "--strict": try flag(); command.options.strict = true
            case "--keep-originals": try flag(); command.options.layout.keepOriginals = true
            case "-q", "--quiet": try flag(); command.quiet = true
            case "-v", "--verbose": try flag(); command.verbose = true
            case "-h", "--help": command.help = true
            default: throw .usage("unknown option '\(argument)' (see 'photobook build --help')")
            }
        }
        if command.help { return command }
        guard !command.inputs.isEmpty else { throw .usage("no input given: name folders or photos to build from") }
        guard let output = command.output, !output.isEmpty else {
            throw .usage("no output given: add -o BOOK.pdf")
        }
        _ = output
        guard command.options.layout.contentArea != nil else {
            throw .usage("margin \(Length.describe(command.options.layout.margin)) leaves no room on a \(command.options.layout.pageSize) page")
        }
        return command
    }

    private static func integer(_ text: String, name: String, range: ClosedRange<Int>) throws(CLIError) -> Int {
        guard let number = Int(text), range.contains(number) else {
            throw .usage("invalid value '\(text)' for \(name): expected a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }
}

extension Length {
    static func describe(_ points: Double) -> String {
        let mm = (points / pointsPerMillimetre * 10).rounded() / 10
        return mm == mm.rounded() ? "\(Int(mm))mm" : "\(mm)mm"
    }
}
