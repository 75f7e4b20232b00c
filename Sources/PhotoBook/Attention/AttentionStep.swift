/// The probe phase's second step for each photo (`Probe.probeAll`'s `then`): its attention map, when the crop rule
/// may want it. On the probe's worker, within `--jobs`, with the build's pool and cancel flag; a map that cannot
/// be made is a centred crop, never a photo lost (and no warning: the render reports a damaged file).
extension RenderPipeline {
    ///
    /// `leavingToRender`: a photo whose blocks a lossless crop may copy is measured by its render instead, from
    /// those blocks (`DecodeOperation.aim`), with the same map the probe would make (`AttentionProbe.map`).
    func attentionStep(leavingToRender: Bool) -> (@Sendable (inout PhotoInfo) -> Void)? {
        guard plan.settings.measuresAttention else { return nil }
        let pool = self.pool, session = self.session, maxPixels = plan.settings.maxPixels
        return { info in
            // Regions come first in the crop rule: a photo that marks some never asks for attention.
            guard info.regions.isEmpty, !(leavingToRender && info.format.codec.makesLosslessCrops) else { return }
            guard let measured = AttentionProbe.map(of: info, maxPixels: maxPixels, pool: pool,
                                                    isCancelled: { session.isCancelled }) else { return }
            // A file its map cannot be made from is a damaged one, which its render refuses by name: one warning
            // for it, not two. Its crop stays centred and the report's cropFrom says so.
            if case .success(let map) = measured { info.attention = map }
        }
    }
}
