import Foundation
import PhotoBookCLI

// photobook with the switches the end-to-end tests and `make bench` use, read from the environment (the
// shipped binary has none of them: PhotoBookCLI/RunHarness.swift):
//   PHOTOBOOK_TEST_PAUSE=POINT       stop at POINT (decode, page, save, commit, committed) until a signal
//   PHOTOBOOK_TEST_PAUSE_HOLD=1      the first cancelling signal cancels but does not release the pause
//   PHOTOBOOK_TEST_IMAGES_IN_MEMORY=1 embed the pages from memory, not from their files
//   PHOTOBOOK_LOSSLESS_CROPS=0       render cropped JPEGs from pixels instead of their DCT blocks
let environment = ProcessInfo.processInfo.environment
var harness = RunHarness()
if let name = environment["PHOTOBOOK_TEST_PAUSE"] {
    guard let point = RunHarness.Point(rawValue: name) else {
        FileHandle.standardError.write(Data("photobook-harness: PHOTOBOOK_TEST_PAUSE: no point \(name)\n".utf8))
        exit(2)
    }
    let pause = TestPause(point: point, holdFirstSignal: environment["PHOTOBOOK_TEST_PAUSE_HOLD"] == "1")
    harness.reached = { pause.reached($0) }
    harness.heardSignal = { pause.release() }
    harness.armed = { pause.arm() }
}
harness.imagesInMemory = environment["PHOTOBOOK_TEST_IMAGES_IN_MEMORY"] == "1"
harness.losslessCrops = environment["PHOTOBOOK_LOSSLESS_CROPS"] != "0"
harness.fileSizeLimit = environment["PHOTOBOOK_TEST_FILE_SIZE_LIMIT"].flatMap { Int($0) }
exit(PhotoBookCLI.main(CommandLine.arguments, harness: harness))
