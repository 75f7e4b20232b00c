/// A zlib stream (RFC 1950) of Huffman-only deflate blocks (RFC 1951, block type 2): each block of input gets
/// a Huffman code fitted to its byte frequencies, lengths limited to 15 bits; there are no string matches.
enum ZlibStream {
    static let blockSize = 1 << 20

    static func compress(_ input: [UInt8]) -> [UInt8] {
        var bits = BitWriter()
        bits.bytes.reserveCapacity(input.count * 3 / 4)
        bits.bytes += [0x78, 0x01]  // deflate, 32 KiB window, no dictionary, "fastest"; 0x7801 % 31 == 0
        var start = 0
        repeat {
            let end = min(input.count, start + blockSize)
            writeBlock(input, start..<end, isFinal: end == input.count, to: &bits)
            start = end
        } while start < input.count
        bits.flush()
        PNGWriter.appendBigEndian(Checksums.adler32(input), to: &bits.bytes)
        return bits.bytes
    }

    /// The order in which the code-length code's own lengths are sent (RFC 1951, 3.2.7).
    static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    private static func writeBlock(_ input: [UInt8], _ range: Range<Int>, isFinal: Bool, to bits: inout BitWriter) {
        var frequencies = [Int](repeating: 0, count: 257)
        for i in range { frequencies[Int(input[i])] += 1 }
        frequencies[256] = 1  // end of block
        let literalLengths = HuffmanCode.lengths(frequencies, limit: 15)
        let literal = HuffmanCode(lengths: literalLengths)
        // One distance code of length 1, never used: the smallest distance alphabet inflate accepts.
        let allLengths = literalLengths + [1]
        var lengthFrequencies = [Int](repeating: 0, count: 19)
        for length in allLengths { lengthFrequencies[length] += 1 }
        let lengthCode = HuffmanCode(lengths: HuffmanCode.lengths(lengthFrequencies, limit: 7))

        bits.write(isFinal ? 1 : 0, count: 1)
        bits.write(2, count: 2)  // dynamic Huffman
        bits.write(0, count: 5)  // HLIT: 257 literal/length codes
        bits.write(0, count: 5)  // HDIST: 1 distance code
        bits.write(15, count: 4)  // HCLEN: all 19 code-length code lengths
        for symbol in codeLengthOrder { bits.write(UInt32(lengthCode.lengths[symbol]), count: 3) }
        for length in allLengths { lengthCode.write(length, to: &bits) }
        input.withUnsafeBufferPointer { input in
            for i in range { literal.write(Int(input[i]), to: &bits) }
        }
        literal.write(256, to: &bits)
    }
}

/// A canonical Huffman code as deflate defines it, with each code stored bit-reversed, ready to be written
/// least significant bit first.
struct HuffmanCode {
    let lengths: [Int]
    private let reversedCodes: [UInt32]

    init(lengths: [Int]) {
        self.lengths = lengths
        let maxLength = lengths.max() ?? 0
        var countPerLength = [Int](repeating: 0, count: maxLength + 1)
        for length in lengths where length > 0 { countPerLength[length] += 1 }
        var nextCode = [UInt32](repeating: 0, count: maxLength + 2)
        var code: UInt32 = 0
        if maxLength > 0 {
            for length in 1...maxLength {
                code = (code + UInt32(countPerLength[length - 1])) << 1
                nextCode[length] = code
            }
        }
        var reversed = [UInt32](repeating: 0, count: lengths.count)
        for (symbol, length) in lengths.enumerated() where length > 0 {
            var value = nextCode[length], flipped: UInt32 = 0
            nextCode[length] += 1
            for _ in 0..<length { flipped = flipped << 1 | value & 1; value >>= 1 }
            reversed[symbol] = flipped
        }
        reversedCodes = reversed
    }

    @inline(__always)
    func write(_ symbol: Int, to bits: inout BitWriter) {
        bits.write(reversedCodes[symbol], count: lengths[symbol])
    }

    /// Huffman code lengths for `frequencies`, none longer than `limit`: when the optimal code is too deep the
    /// frequencies are halved (keeping every used symbol at 1 or more) until it is not. At least two symbols
    /// get a code, because a one-code alphabet is incomplete and inflate refuses it for the code-length code.
    static func lengths(_ frequencies: [Int], limit: Int) -> [Int] {
        var weights = frequencies
        if weights.filter({ $0 > 0 }).count < 2 {
            let spare = weights.firstIndex(of: 0) ?? 0
            weights[spare] = max(1, weights[spare])
            if weights.filter({ $0 > 0 }).count < 2 { weights[weights.count - 1 - spare] = 1 }
        }
        while true {
            let lengths = optimalLengths(weights)
            if lengths.max()! <= limit { return lengths }
            weights = weights.map { $0 == 0 ? 0 : ($0 + 1) / 2 }
        }
    }

    /// Depths of the leaves of Huffman's tree, built by repeatedly joining the two lightest nodes.
    private static func optimalLengths(_ weights: [Int]) -> [Int] {
        var nodeWeight: [Int] = []
        var parent: [Int] = []
        var leafNode = [Int](repeating: -1, count: weights.count)
        var active: [Int] = []
        for (symbol, weight) in weights.enumerated() where weight > 0 {
            leafNode[symbol] = nodeWeight.count
            active.append(nodeWeight.count)
            nodeWeight.append(weight)
            parent.append(-1)
        }
        while active.count > 1 {
            active.sort { nodeWeight[$0] > nodeWeight[$1] }
            let a = active.removeLast(), b = active.removeLast()
            let joined = nodeWeight.count
            nodeWeight.append(nodeWeight[a] + nodeWeight[b])
            parent.append(-1)
            parent[a] = joined
            parent[b] = joined
            active.append(joined)
        }
        return leafNode.map { node in
            guard node >= 0 else { return 0 }
            var depth = 0, current = node
            while parent[current] >= 0 { depth += 1; current = parent[current] }
            return depth
        }
    }
}

/// Packs codes into bytes least significant bit first, as deflate does.
struct BitWriter {
    var bytes: [UInt8] = []
    private var buffer: UInt64 = 0
    private var count = 0

    @inline(__always)
    mutating func write(_ value: UInt32, count bitCount: Int) {
        buffer |= UInt64(value) << UInt64(count)
        count += bitCount
        while count >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: buffer))
            buffer >>= 8
            count -= 8
        }
    }

    mutating func flush() {
        if count > 0 { bytes.append(UInt8(truncatingIfNeeded: buffer)) }
        buffer = 0
        count = 0
    }
}
