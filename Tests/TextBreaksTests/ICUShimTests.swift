import CICUShim
import Testing

/// The C side's contract: errors come back as minus ICU's error code, never as a crash.
@Suite struct ICUShimTests {
    static let illegalArgument: Int32 = -1  // U_ILLEGAL_ARGUMENT_ERROR
    static let bufferOverflow: Int32 = -15  // U_BUFFER_OVERFLOW_ERROR

    @Test func badArgumentsAreRefused() {
        var runs = [pbicu_run](repeating: pbicu_run(), count: 4)
        var breaks = [Int32](repeating: 0, count: 4)
        var mandatory = [UInt8](repeating: 0, count: 4)
        let text: [UInt16] = Array("abc".utf16)
        #expect(pbicu_visual_runs(nil, 3, Int32(PBICU_NEUTRAL), &runs, 4) == Self.illegalArgument)
        #expect(pbicu_visual_runs(text, -1, Int32(PBICU_NEUTRAL), &runs, 4) == Self.illegalArgument)
        #expect(pbicu_visual_runs(text, 3, 7, &runs, 4) == Self.illegalArgument)
        #expect(pbicu_visual_runs(text, 3, Int32(PBICU_NEUTRAL), nil, 4) == Self.illegalArgument)
        #expect(pbicu_base_direction(nil, 3) == Self.illegalArgument)
        #expect(pbicu_line_breaks(text, 3, nil, &breaks, &mandatory, 4) == Self.illegalArgument)
        #expect(pbicu_line_breaks(nil, 3, "en", &breaks, &mandatory, 4) == Self.illegalArgument)
        #expect(pbicu_line_breaks(text, 3, "en", nil, nil, 4) == Self.illegalArgument)
        #expect(String(cString: pbicu_error_name(Self.illegalArgument)) == "U_ILLEGAL_ARGUMENT_ERROR")
        #expect(String(cString: pbicu_error_name(Self.bufferOverflow)) == "U_BUFFER_OVERFLOW_ERROR")
    }

    @Test func textsOverTheLimitAreRefused() {
        let long = [UInt16](repeating: 0x61, count: Int(PBICU_MAX_LENGTH) + 1)
        var runs = [pbicu_run](repeating: pbicu_run(), count: long.count)
        var breaks = [Int32](repeating: 0, count: long.count)
        var mandatory = [UInt8](repeating: 0, count: long.count)
        let length = Int32(long.count)
        #expect(pbicu_visual_runs(long, length, Int32(PBICU_LTR), &runs, length) == Self.illegalArgument)
        #expect(pbicu_line_breaks(long, length, "en", &breaks, &mandatory, length) == Self.illegalArgument)
        #expect(pbicu_base_direction(long, length) == Self.illegalArgument)
        #expect(pbicu_visual_runs(long, length - 1, Int32(PBICU_LTR), &runs, length) == 1)
    }

    @Test func tooLittleRoomIsAnOverflowNotAnOverrun() {
        let text: [UInt16] = Array("abc שלום def".utf16)
        var runs = [pbicu_run](repeating: pbicu_run(), count: 1)
        #expect(pbicu_visual_runs(text, Int32(text.count), Int32(PBICU_NEUTRAL), &runs, 1) == Self.bufferOverflow)
        var breaks = [Int32](repeating: 0, count: 1)
        var mandatory = [UInt8](repeating: 0, count: 1)
        #expect(pbicu_line_breaks(text, Int32(text.count), "en", &breaks, &mandatory, 1) == Self.bufferOverflow)
    }

    @Test func rawAnswers() {
        let text: [UInt16] = Array("a b\n".utf16)
        var breaks = [Int32](repeating: 0, count: 4)
        var mandatory = [UInt8](repeating: 0, count: 4)
        // ICU's own end of text is included at this level, a hard break after a final newline.
        #expect(pbicu_line_breaks(text, 4, "en", &breaks, &mandatory, 4) == 2)
        #expect(breaks.prefix(2) == [2, 4] && mandatory.prefix(2) == [0, 1])
        // A locale ICU does not know falls back to its root rules.
        #expect(pbicu_line_breaks(text, 4, "zz-!!@@lb=nonsense", &breaks, &mandatory, 4) == 2)
        #expect(pbicu_base_direction(text, 0) == Int32(PBICU_NEUTRAL))
        #expect(pbicu_visual_runs(text, 0, Int32(PBICU_RTL), nil, 0) == 0)
    }
}
