import Imaging
import Testing
@testable import JPEG

/// `shouldCancel` is asked at every safe point, and once it says yes the work stops with `.cancelled`:
/// no further calls, no result.
struct CancellationTests {
    static let picture = JPEGTestSupport.syntheticImage(width: 320, height: 256, seed: 9)
    static let bands = (256 + JPEGDecoder.bandRows - 1) / JPEGDecoder.bandRows

    /// How many times a full run asks `shouldCancel` when the answer is always no.
    static func callsWithoutCancelling(_ run: (() -> Bool) throws(JPEGError) -> Void) throws -> Int {
        let counter = JPEGTestSupport.CancelAfter(.max)
        try run { counter() }
        return counter.calls
    }

    static func decode(_ jpeg: [UInt8]) -> (() -> Bool) throws(JPEGError) -> Void {
        { (shouldCancel: () -> Bool) throws(JPEGError) in
            _ = try JPEGDecoder.decode(jpeg, minimumWidth: 320, minimumHeight: 256, maxPixels: 1 << 20,
                                       shouldCancel: shouldCancel)
        }
    }

    static func encode(_ options: JPEGEncoder.Options) -> (() -> Bool) throws(JPEGError) -> Void {
        { (shouldCancel: () -> Bool) throws(JPEGError) in
            _ = try JPEGEncoder.encode(picture, options: options, shouldCancel: shouldCancel)
        }
    }

    /// Cancelling at each call in turn: every one stops the run with `.cancelled` at exactly that call.
    static func expectCancellableAtEveryCall(_ run: (() -> Bool) throws(JPEGError) -> Void, total: Int) {
        for cancelAt in 1...total {
            let counter = JPEGTestSupport.CancelAfter(cancelAt)
            #expect(throws: JPEGError.cancelled, "cancel at call \(cancelAt)") { try run { counter() } }
            #expect(counter.calls == cancelAt, "kept asking after call \(cancelAt) said yes")
        }
    }

    @Test("decoding a baseline file stops at whichever check says cancel")
    func decodeBaseline() throws {
        let run = Self.decode(try JPEGEncoder.encode(Self.picture, quality: 90))
        let total = try Self.callsWithoutCancelling(run)
        #expect(total == Self.bands + 2)  // before starting, after starting, after each band
        Self.expectCancellableAtEveryCall(run, total: total)
    }

    @Test("decoding a progressive file can be cancelled inside jpeg_start_decompress", arguments: [false, true])
    func decodeProgressive(arithmetic: Bool) throws {
        let jpeg = try JPEGEncoder.encode(Self.picture, options: .init(progressive: true, arithmeticCoding: arithmetic))
        let run = Self.decode(jpeg)
        let total = try Self.callsWithoutCancelling(run)
        // The order of calls: 1 before starting, then the progress monitor while start reads every scan,
        // then 1 after starting and 1 per band. Calls 2...(1 + monitorCalls) all happen inside start.
        let monitorCalls = total - (Self.bands + 2)
        #expect(monitorCalls >= 10)  // at least one per scan
        for cancelAt in [2, 2 + monitorCalls / 2, 1 + monitorCalls] {
            let counter = JPEGTestSupport.CancelAfter(cancelAt)
            #expect(throws: JPEGError.cancelled) { try run { counter() } }
            #expect(counter.calls == cancelAt)
        }
    }

    @Test("a decode cancelled before it starts does no work: not even the header is read")
    func decodeCancelledUpFront() {
        let counter = JPEGTestSupport.CancelAfter(1)
        #expect(throws: JPEGError.cancelled) {
            try JPEGDecoder.decode([0xFF, 0xD8, 0xFF, 0xFF], minimumWidth: 1, minimumHeight: 1,
                                   maxPixels: 1, shouldCancel: { counter() })
        }
    }

    @Test("encoding stops at whichever check says cancel", arguments: [
        JPEGEncoder.Options(), JPEGEncoder.Options(colorModel: .cmyk), JPEGEncoder.Options(optimizeCoding: false),
    ])
    func encodeBaseline(_ options: JPEGEncoder.Options) throws {
        let run = Self.encode(options)
        let total = try Self.callsWithoutCancelling(run)
        #expect(total >= Self.bands + 1)  // before starting and after each band (plus, when optimizing, finish)
        Self.expectCancellableAtEveryCall(run, total: total)
    }

    @Test("a progressive encode can be cancelled inside jpeg_finish_compress")
    func encodeProgressive() throws {
        let run = Self.encode(.init(progressive: true))
        let total = try Self.callsWithoutCancelling(run)
        // 1 before starting, 1 per band, then the progress monitor during the passes in finish.
        let finishCalls = total - (Self.bands + 1)
        #expect(finishCalls >= 10)
        for cancelAt in [Self.bands + 2, total] {
            let counter = JPEGTestSupport.CancelAfter(cancelAt)
            #expect(throws: JPEGError.cancelled) { try run { counter() } }
            #expect(counter.calls == cancelAt)
        }
    }
}
