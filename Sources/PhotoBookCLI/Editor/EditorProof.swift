import Foundation
import Geometry
import PhotoBook
import Platform
import Synchronization

/// One proof of a description's text: `build --proof` as far as the renders (the render cache makes a page that
/// did not change cost a read), its pages handed over (`BuildHooks.proofSheets`) instead of a PDF, and the page's
/// state made from them.
struct EditorProof {
    let book: EditorBook

    struct Made {
        var pages: [EditorState.Page]
        var leftOut: [EditorState.LeftOut]
        var warnings: [String]
        var error: String?
        var renders: [String: [UInt8]]
        var font: String?
    }

    /// The build's command for the description: its options, `--proof`, the print output's name.
    static func command(for input: DescriptionInput, output: String, proof: Bool) throws(CLIError) -> BuildCommand {
        let typed = try TypedOptions.scan([input.path, "-o", output] + (proof ? ["--proof"] : []), commandName: "build")
        var command = BuildCommand.layered(typed, description: input.options)
        // A proof is for the screen: a PDF/X book (its options or its preset's) is shown in RGB all the same.
        if proof { command.pdfx = PDFXOptions() }
        return try command.checked()
    }

    /// Where the editor's proofs work: the temporary folder, never beside the book (it may not be writable).
    static func temporaryFolder(_ run: Run) -> String { run.environment.temporaryDirectory ?? "/tmp" }

    /// The name a proof's output is checked under: never written.
    static func proofOutput(_ run: Run) -> String { temporaryFolder(run) + "/photobook-editor-proof.pdf" }

    /// Renders `ready`'s photos as `ready`'s options place them and hands the pages over instead of writing a PDF
    /// (`BuildHooks.proofSheets`); `running` runs the pipeline (nil: it did not run).
    static func sheets(_ ready: PhotoBookCLI.ReadyBuild, run: Run, running: (RenderPipeline) -> BuildReport?)
        -> (sheets: [ProofSheet], report: BuildReport)? {
        let sheets = Mutex<[ProofSheet]>([])
        var hooks = BuildHooks()
        hooks.proofSheets = { made in sheets.withLock { $0 = made } }
        guard let report = running(RenderPipeline(files: ready.photos, outputPath: proofOutput(run),
                                                  options: ready.options, hooks: hooks)) else { return nil }
        return (sheets.withLock { $0 }, report)
    }

    /// The description's build made ready as `build` would make it (photos found, font read), its errors said
    /// into `say`.
    static func ready(_ input: DescriptionInput, command: BuildCommand, run: Run, say: Diagnostics) throws(CLIError) -> PhotoBookCLI.ReadyBuild {
        switch PhotoBookCLI.prepare(command, run, description: input, say: say) {
        case .success(var ready):
            // The proof's working folder goes in the temporary folder, not beside the book.
            ready.options.temporaryDirectory = temporaryFolder(run)
            return ready
        case .failure:
            // Its errors only (a proof's "not for print" warning is no reason).
            throw .usage(say.lines.filter { $0.hasPrefix("photobook: error: ") }
                .map { String($0.dropFirst("photobook: error: ".count)) }.joined(separator: "\n"))
        }
    }

    func make(_ text: [UInt8]) throws(CLIError) -> Made {
        let input = try DescriptionInput.load(book.path, bytes: text)
        // The proof writes nothing (its pages are handed over), but its output is checked as a build's: a name in
        // the temporary folder, so that a book in a folder the person may not write to still opens.
        let command = try Self.command(for: input, output: Self.proofOutput(book.run), proof: true)
        let say = Diagnostics.capturing()
        let ready = try Self.ready(input, command: command, run: book.run, say: say)
        guard let (sheets, report) = Self.sheets(ready, run: book.run, running: book.runProof) else { throw .usage("the editor is closing") }

        // Each photo listed, by its file's index: which page of the description and which place on it.
        var places: [(page: Int, slot: Int)] = []
        for (page, described) in input.description.pages.enumerated() {
            for slot in described.photos.indices { places.append((page, slot)) }
        }
        var made = Made(pages: [], leftOut: [], warnings: [], error: nil, renders: [:], font: nil)
        let layout = ready.options.layout
        for (index, sheet) in sheets.enumerated() {
            let plan = sheet.plan, height = plan.size.height
            var page = EditorState.Page(number: index + 1, kind: "photos", source: nil, width: plan.size.width,
                                        height: height, trim: EditorState.topLeft(plan.trimBox, pageHeight: height),
                                        layout: nil, layouts: [], locked: false, photos: [], texts: [])
            switch plan.kind {
            case .title: page.kind = "title"
            case .blank: page.kind = "blank"
            case .spreadHalf(let side): page.kind = "spread-\(side.rawValue)"
            case .photos(let arrangement): page.layout = arrangement.description
            case .wrapCover: page.kind = "cover"
            }
            var captionPaths: [(text: PlacedText, path: String)] = []
            for picture in sheet.photos {
                let index = picture.placed.photo.index
                guard index < places.count, page.kind != "title" else {
                    // The title page's cover photo (perhaps also on a page of its own): drawn, not edited here.
                    let name = RenderName.of(picture.jpeg)
                    made.renders[name] = picture.jpeg
                    page.cover = EditorState.Picture(cell: EditorState.topLeft(picture.placed.cell, pageHeight: height),
                                                     image: EditorState.topLeft(EditorState.pictureRect(picture), pageHeight: height),
                                                     src: "/render/\(name).jpg")
                    continue
                }
                let (source, slot) = places[index]
                let listed = input.description.pages[source].photos[slot]
                if page.kind == "photos" { page.source = source }
                let jpeg = picture.jpeg
                let name = RenderName.of(jpeg)
                made.renders[name] = jpeg
                let crop = picture.placed.crop
                let (w, h) = (Double(max(picture.uprightWidth, 1)), Double(max(picture.uprightHeight, 1)))
                let dpi = picture.placed.printedDPI(layout)
                page.photos.append(EditorState.Photo(
                    path: listed.path, slot: slot,
                    cell: EditorState.topLeft(picture.placed.cell, pageHeight: height),
                    image: EditorState.topLeft(EditorState.pictureRect(picture), pageHeight: height),
                    src: "/render/\(name).jpg",
                    crop: [crop.x / w, crop.y / h, crop.width / w, crop.height / h].map { ($0 * 10000).rounded() / 10000 },
                    focus: listed.focus, dpi: Int(dpi.rounded()), lowResolution: dpi < EditorState.lowDensity,
                    cutsFace: picture.placed.cutsRegion))
                if let caption = picture.placed.caption { captionPaths.append((caption, listed.path)) }
            }
            if let source = page.source {
                let described = input.description.pages[source]
                page.locked = described.locked ?? false
                let aspects = sheet.photos.map { Double(max($0.uprightWidth, 1)) / Double(max($0.uprightHeight, 1)) }
                let area = sheet.photos.map(\.placed.cell).reduce(nil as Rect?) { sum, cell in sum.map { $0.union(cell) } ?? cell }
                var layouts = area.map { PageArrangement.choices(aspects: aspects, area: $0, gap: layout.gap).map(\.description) } ?? []
                if let current = page.layout, !layouts.contains(current) { layouts.insert(current, at: 0) }
                if let pinned = described.layout, !layouts.contains(pinned) { layouts.insert(pinned, at: 0) }
                page.layouts = layouts
            }
            for text in plan.texts {
                page.texts.append(EditorState.Text(role: text.role.rawValue, path: captionPaths.first { $0.text == text }?.path,
                                                   box: EditorState.topLeft(text.box, pageHeight: height),
                                                   lines: text.lines, size: text.size, leading: text.leading,
                                                   align: text.alignment == .center ? "centre" : text.alignment.rawValue))
            }
            made.pages.append(page)
        }
        // The choice's reasons in the dry run's words ("the same moment as another: photos/b.jpg"); others as written.
        made.leftOut = (input.description.photosLeftOut ?? []).map { left in
            let words = ChoiceReason(rawValue: left.reason).map(\.words) ?? left.reason
            return EditorState.LeftOut(path: left.path, reason: words + (left.of.map { ": \($0)" } ?? ""))
        }
        // A photo of the pages that cannot be read, by its path as the description writes it (a report's photos are
        // one per file, in the order listed).
        for (index, photo) in report.photos.enumerated() {
            if case .failed(let failure) = photo.outcome {
                let listed = index < places.count
                    ? input.description.pages[places[index].page].photos[places[index].slot].path : photo.path
                made.leftOut.append(EditorState.LeftOut(path: listed, reason: failure.message, failed: true))
            }
        }
        if case .text(let family)? = input.description.options["font"], !RenderRun.namesFontFile(family) {
            made.font = family
        }
        made.warnings = report.warnings.map { warning in (warning.path.map { "\($0): " } ?? "") + warning.message }
        if report.book != .succeeded { made.error = "the book cannot be made as it is: \(report.book)" }
        return made
    }
}

/// Names a render by its bytes, so that a name is never reused for other bytes (the page may keep it cached).
enum RenderName {
    static func of(_ bytes: [UInt8]) -> String {
        // FNV-1a over the bytes and their count, twice with different seeds: a name, not a security boundary (the
        // renders are only ever served from this process's memory by exact name).
        var a: UInt64 = 0xcbf2_9ce4_8422_2325, b: UInt64 = 0x84222325_cbf29ce4 ^ UInt64(bytes.count)
        for byte in bytes {
            a = (a ^ UInt64(byte)) &* 0x100_0000_01b3
            b = (b ^ UInt64(byte)) &* 0x100_0000_01b3 &+ 0x9e37_79b9
        }
        return String(a, radix: 16) + String(b, radix: 16)
    }
}
