import Foundation
import TegulaGeometry
import TegulaSupport
import TegulaWarp

/// The zooms below the max of a pyramid served on demand, made by the pyramid itself (its
/// max-zoom blocks warped and halved down, as `tegula tile` makes them) and held in memory as
/// RGBA tiles: a tile below the max zoom is then encoded from them, and its bytes are those
/// `tegula tile` writes.
///
/// Without them a tile `k` zooms below the max is resampled from reduced copies of the scan by
/// the ``TegulaWarp`` reduction kernel, about one 256² warp with 25–80 taps a pixel whatever the
/// zoom, within 43–63 dB of the pyramid: 65 % of a cold pass over the benchmark's tiles (the
/// kernel 32 %, the coverage of its edges 13 %, `perf`, 2026-11-27). Held levels are the same
/// idea as TiTiler's COG overviews, made at start-up from the scan instead of by a separate
/// command beforehand.
///
/// The levels of every source of a process share ``budgetBytes``: a pyramid whose lower zooms do
/// not fit what is left of it (a large scan) reads reduced copies as before, so memory stays
/// bounded whatever the scan's size. Sizes are counted for every tile position of the plan below
/// the max zoom, so the budget also bounds the start-up work (the max zoom's blocks under them).
public final class HeldLevels: @unchecked Sendable {
    /// Bytes of held levels in one process, over all its sources. The benchmark scan's lower
    /// zooms (10800 × 5400, zooms 2–7 of 2–8) take 163 MiB of tile positions.
    public static let budgetBytes = 192 << 20
    private static let reserved = Locked(0)

    /// The bytes reserved: every tile position below the max zoom, 4 bytes a pixel.
    public let byteCount: Int
    private let condition = NSCondition()
    private var tiles: [Tile: [UInt8]] = [:]
    /// The max zoom's block grids the build made: the max-zoom tiles served afterwards warp with
    /// them instead of making them again (a TPS grid is most of a max-zoom tile's cost).
    private var grids: [Tile: BlockGrid] = [:]
    private var outcome: Result<Void, Error>?

    /// Reserve room for `plan`'s zooms below its max from the process's budget; nil when they
    /// do not fit what is left of it (or there are none).
    init?(plan: PyramidPlan, budget: Int = HeldLevels.budgetBytes) {
        guard plan.zooms.max > plan.zooms.min else { return nil }
        let p = plan.tilePixels
        var bytes = 0
        for z in plan.zooms.min..<plan.zooms.max {
            let r = plan.range(z)
            bytes += r.x.count * r.y.count * p * p * 4
        }
        let fits = Self.reserved.withLock { used -> Bool in
            guard used + bytes <= budget else { return false }
            used += bytes
            return true
        }
        guard fits else { return nil }
        byteCount = bytes
    }

    deinit { Self.reserved.withLock { $0 -= byteCount } }

    /// Build the levels with the pyramid's own builder on `jobs` threads (the max zoom's tiles are
    /// warped, halved and dropped; neither they nor the lower ones are encoded). Tiles asked for
    /// meanwhile wait; if the build fails, they fail with its error.
    func build(job: TileJob, plan: PyramidPlan, jobs: Int) throws {
        let builder = PyramidBuilder(
            source: job.source, plan: plan, resampling: job.settings.resampling, encoding: job.settings.encoding, jobs: jobs)
        do {
            _ = try builder.runLowerZoomPixels(
                { [self] t, pixels in
                    condition.lock()
                    tiles[t] = pixels
                    condition.unlock()
                },
                grids: { [self] block, grid in
                    condition.lock()
                    grids[block] = grid
                    condition.unlock()
                })
            finish(.success(()))
        } catch {
            finish(.failure(error))
            throw error
        }
    }

    private func finish(_ result: Result<Void, Error>) {
        condition.lock()
        outcome = result
        condition.broadcast()
        condition.unlock()
    }

    /// The grid the build made for a max-zoom block, once it is built (nil before, never waiting).
    func grid(_ block: Tile) -> BlockGrid? {
        condition.lock()
        defer { condition.unlock() }
        return outcome == nil ? nil : grids[block]
    }

    /// The held tile's RGBA pixels, nil for an empty tile, once the build has ended (waiting
    /// for it until then); the build's error if it failed.
    func pixels(_ t: Tile) throws -> [UInt8]? {
        condition.lock()
        defer { condition.unlock() }
        while outcome == nil { condition.wait() }
        try outcome!.get()
        return tiles[t]
    }
}
