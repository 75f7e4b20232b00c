/// The probe phase's second step for each photo (`Probe.probeAll`'s `then`): its attention map, when the crop rule
/// may want it. On the probe's worker, within `--jobs`, with the build's pool and cancel flag; a map that cannot
/// be made is a warning and a centred crop, never a photo lost.
extension RenderPipeline {
    var attentionStep: (@Sendable (inout PhotoInfo) -> Void)? {
        guard plan.settings.measuresAttention else { return nil }
        let pool = self.pool, session = self.session, maxPixels = plan.settings.maxPixels
        return { info in
            // Regions come first in the crop rule: a photo that marks some never asks for attention.
            guard info.regions.isEmpty, AttentionProbe.isCheap(info) else { return }
            switch AttentionProbe.map(of: info, maxPixels: maxPixels, pool: pool, isCancelled: { session.isCancelled }) {
            case .success(let map): info.attention = map
            case .failure(.cancelled): break
            case .failure(let error): info.warnings.append("no attention map (\(error)); its crop stays centred")
            }
        }
    }
}
