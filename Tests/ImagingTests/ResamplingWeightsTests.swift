import Testing
@testable import Imaging

@Suite("Resampling weights")
struct ResamplingWeightsTests {
    @Test("runs stay inside the source, weights sum to 1",
          arguments: [(10, 0.0, 10.0, 10), (4000, 0.0, 4000.0, 100), (7, 0.0, 7.0, 3), (5, 0.0, 5.0, 17),
                      (100, 12.3, 45.6, 19), (10, -2.0, 14.0, 6), (1, 0.0, 1.0, 4), (1, 0.0, 1.0, 1)])
    func runs(sourceLength: Int, origin: Double, length: Double, outputs: Int) {
        let table = ResamplingWeights(sourceLength: sourceLength, regionOrigin: origin, regionLength: length,
                                      outputCount: outputs)
        for j in 0..<outputs {
            let start = table.starts[j], count = table.counts[j]
            #expect(start >= 0 && count >= 1 && count <= table.stride && start + count <= sourceLength)
            let sum = (0..<count).reduce(0.0) { $0 + Double(table.weights[j * table.stride + $1]) }
            #expect(abs(sum - 1) < 1e-5, "output \(j)")
        }
    }

    @Test("at scale 1 on the pixel grid each output reads exactly one pixel")
    func identityTaps() {
        let table = ResamplingWeights(sourceLength: 50, regionOrigin: 7, regionLength: 20, outputCount: 20)
        for j in 0..<20 {
            #expect(table.starts[j] == 7 + j && table.counts[j] == 1 && table.weights[j * table.stride] == 1)
        }
    }

    @Test("the kernel: 1 at 0, 0 at the other integers, 0 from 3 on")
    func kernel() {
        #expect(ResamplingWeights.lanczos3(0) == 1)
        for x in [1.0, 2, -1, -2] { #expect(abs(ResamplingWeights.lanczos3(x)) < 1e-15) }
        for x in [3.0, -3, 3.5, 100] { #expect(ResamplingWeights.lanczos3(x) == 0) }
        #expect(abs(ResamplingWeights.lanczos3(0.5) - ReferenceResampler.lanczos3(0.5)) < 1e-12)
        #expect(abs(ResamplingWeights.lanczos3(-1.7) - ReferenceResampler.lanczos3(-1.7)) < 1e-12)
    }
}
