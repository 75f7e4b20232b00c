import ImageCodec
import Imaging
import Platform

/// The probe phase's second step for each photo (`Probe.probeAll`'s `then`): what the choice of photos measures
/// (`PhotoTraits`), when it is asked for, and its attention map, when the crop rule may want it. On the probe's
/// worker, within `--jobs`, with the build's pool and cancel flag; a map that cannot be made is a centred crop,
/// never a photo lost (and no warning: the render reports a damaged file). The photo's file is read once for
/// both when the map would be measured on the picture the choice reads (a JPEG's block means).
extension RenderPipeline {
    ///
    /// `leavingToRender`: a photo whose blocks a lossless crop may copy is measured by its render instead, from
    /// those blocks (`DecodeOperation.aim`), with the same map the probe would make (`AttentionProbe.map`).
    func attentionStep(leavingToRender: Bool) -> (@Sendable (inout PhotoInfo, FileSource) -> Void)? {
        let measuresTraits = plan.settings.measuresTraits, measuresAttention = plan.settings.measuresAttention
        guard measuresAttention || measuresTraits else { return nil }
        let pool = self.pool, session = self.session, maxPixels = plan.settings.maxPixels
        let measureStarted = hooks.measureStarted
        return { info, source in
            var shared: RGBImage?
            if measuresTraits { measureStarted?(info.file.path) }
            if measuresTraits, !session.isCancelled,
               let read = TraitsProbe.picture(of: info, source: source, maxPixels: maxPixels, pool: pool,
                                              isCancelled: { session.isCancelled }) {
                info.traits = PhotoTraits.measure(read.image, orientation: info.orientation)
                if read.attentionSees { shared = read.image } else { pool.giveBack(read.image.pixels) }
            }
            // Regions come first in the crop rule: a photo that marks some never asks for attention.
            guard measuresAttention, info.regions.isEmpty,
                  !(leavingToRender && info.format.codec.blocks != nil) else {
                if let shared { pool.giveBack(shared.pixels) }
                return
            }
            guard let measured = AttentionProbe.map(of: info, source: source, maxPixels: maxPixels, pool: pool, picture: shared,
                                                    isCancelled: { session.isCancelled }) else { return }
            // A file its map cannot be made from is a damaged one, which its render refuses by name: one warning
            // for it, not two. Its crop stays centred and the report's cropFrom says so.
            if case .success(let map) = measured { info.attention = map }
        }
    }
}
