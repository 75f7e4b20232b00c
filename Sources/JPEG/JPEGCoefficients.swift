import CJPEGShim
import Imaging

/// The quantised DCT coefficients of a JPEG, as libjpeg reads them (`jpeg_read_coefficients`): what a lossless
/// operation must keep, and what proves it did.
public struct JPEGCoefficients: Sendable, Equatable {
    /// One component's blocks, row by row, each 64 coefficients in natural (row-major) order.
    public struct Component: Sendable, Equatable {
        public var horizontalSampling: Int
        public var verticalSampling: Int
        /// The blocks that hold image pixels.
        public var widthInBlocks: Int
        public var heightInBlocks: Int
        /// The blocks kept: whole iMCUs, so the padding past the right and bottom edge too.
        public var storedWidthInBlocks: Int
        public var storedHeightInBlocks: Int
        /// The quantisation table the component was coded with, in natural order.
        public var quantization: [UInt16]
        /// `storedWidthInBlocks * storedHeightInBlocks` blocks of 64.
        public var coefficients: [Int16]

        /// The 64 coefficients of the block at `column`, `row` (of the stored blocks).
        public func block(column: Int, row: Int) -> ArraySlice<Int16> {
            let start = (row * storedWidthInBlocks + column) * 64
            return coefficients[start..<(start + 64)]
        }
    }

    public var width: Int
    public var height: Int
    public var isProgressive: Bool
    public var isArithmetic: Bool
    /// MCUs between restart markers, 0 when there are none.
    public var restartInterval: Int
    public var components: [Component]

    /// Reads every coefficient of `data` (any libjpeg warning fails, as when decoding), libjpeg's large blocks
    /// from `pool`.
    public static func read(_ data: [UInt8], pool: BufferPool = BufferPool()) throws(JPEGError) -> JPEGCoefficients {
        guard JPEGDecoder.isJPEG(data) else { throw .notJPEG }
        let result: Result<JPEGCoefficients, JPEGError> = data.withUnsafeBufferPointer { bytes in
            do throws(JPEGError) {
                let transcoder = try TranscoderHandle(maxScans: JPEGDecoder.maximumProgressiveScans, probe: nil,
                                                      pool: pool)
                let layout = try transcoder.readHeader(bytes)
                try transcoder.readCoefficients()
                var components: [Component] = []
                for index in 0..<Int(layout.components) {
                    let (info, blocks) = try transcoder.component(index, copyBlocks: true)
                    let table = withUnsafeBytes(of: info.quantization) { Array($0.bindMemory(to: UInt16.self)) }
                    components.append(Component(horizontalSampling: Int(info.h), verticalSampling: Int(info.v),
                                                widthInBlocks: Int(info.width_in_blocks),
                                                heightInBlocks: Int(info.height_in_blocks),
                                                storedWidthInBlocks: Int(info.stored_width),
                                                storedHeightInBlocks: Int(info.stored_height),
                                                quantization: table, coefficients: blocks))
                }
                return .success(JPEGCoefficients(width: Int(layout.width), height: Int(layout.height),
                                                 isProgressive: layout.progressive != 0,
                                                 isArithmetic: layout.arithmetic != 0,
                                                 restartInterval: Int(layout.restart_interval),
                                                 components: components))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
