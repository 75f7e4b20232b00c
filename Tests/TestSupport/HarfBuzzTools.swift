import Foundation

/// HarfBuzz's own command-line tools (libharfbuzz-bin): the reference the shaping and the drawing of shaped text
/// are compared with, run on the same font file and string.
package enum HarfBuzzTools {
    /// One glyph as `hb-shape --output-format=json` prints it: id, cluster (in characters), advances ("ax", "ay":
    /// y negative down a top-to-bottom column), offsets ("dx", "dy").
    package struct Glyph: Equatable, Sendable {
        package let glyph: UInt32
        package let cluster: Int
        package let xAdvance: Int
        package let xOffset: Int
        package let yOffset: Int
        package let yAdvance: Int
    }

    /// `text` shaped by `hb-shape` in face `index` of `font`, visual order (top to bottom with `topToBottom`,
    /// which wins over `rightToLeft`), with the flags photobook's shaping
    /// sets (a paragraph of its own, default ignorables removed), in the C.UTF-8 locale (glib reads the arguments in its character set) so that no language comes from
    /// the environment.
    package static func shape(_ text: String, font: String, index: Int = 0, rightToLeft: Bool = false,
                              topToBottom: Bool = false, language: String? = nil) throws -> [Glyph] {
        let direction = topToBottom ? "ttb" : rightToLeft ? "rtl" : "ltr"
        var arguments = ["--no-glyph-names", "--output-format=json", "--bot", "--eot", "--remove-default-ignorables",
                         "--face-index=\(index)", "--direction=" + direction]
        if let language { arguments.append("--language=" + language) }
        let run = try ExternalCommand.run("hb-shape", arguments + [font, text], environment: ["LC_ALL": "C.UTF-8"])
        guard run.status == 0, !run.timedOut,
              let glyphs = try JSONSerialization.jsonObject(with: Data(run.stdout)) as? [[String: Int]] else {
            throw ExternalCommand.Failure(description: "hb-shape \(arguments.joined(separator: " ")): \(run.stderrText)")
        }
        return try glyphs.map { glyph in
            guard let id = glyph["g"], let cluster = glyph["cl"], let advance = glyph["ax"], let dx = glyph["dx"], let dy = glyph["dy"],
                  let ay = glyph["ay"] else {
                throw ExternalCommand.Failure(description: "hb-shape printed \(glyph)")
            }
            return Glyph(glyph: UInt32(id), cluster: cluster, xAdvance: advance, xOffset: dx, yOffset: dy, yAdvance: ay)
        }
    }

    /// `text` drawn by `hb-view` at `pixels` per em, black on white with no margin, as a PNG at `path`.
    package static func view(_ text: String, font: String, index: Int = 0, rightToLeft: Bool = false, pixels: Int,
                             to path: String) throws {
        _ = try ExternalCommand.output("hb-view", [
            "--face-index=\(index)", "--direction=" + (rightToLeft ? "rtl" : "ltr"), "--font-size=\(pixels)",
            "--margin=0", "--output-format=png", "--output-file=" + path, font, text,
        ])
    }
}
