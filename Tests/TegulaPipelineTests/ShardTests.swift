import Foundation
import TegulaCluster
import TegulaGeometry
import TegulaTestSupport
import TegulaTileset
import Testing

@testable import TegulaPipeline

/// Sharded runs on a generated collection: the plan (deterministic, disjoint, complete), shards
/// giving the same tiles as one machine, retries, duplicates, a killed shard, and every refusal
/// of the reduce.
@Suite(.serialized, .timeLimit(.minutes(20))) struct ShardTests {
    /// 12 sheets over Europe, 2× Blue Marble's resolution, zooms up to 5: blocks at zoom 3.
    static func collection(_ label: String, sheets: Int = 12, maxZoom: Int = 5) throws -> (folder: String, file: String) {
        let folder = try TemporaryFolder.make(label).path
        let file = try TestCollection.make(in: folder, sheets: sheets, upsample: 2, maxZoom: maxZoom)
        return (folder, file)
    }

    static func digest(_ path: String) throws -> (String, Int) {
        let d = try TilesetDigest.of(path)
        return (d.digest, d.tiles)
    }

    static func runner(_ file: String, _ options: RunOptions, log: LoggedLines = LoggedLines(), blocksPerPack: Int = 64) throws -> PipelineRunner {
        PipelineRunner(
            pipeline: try Pipeline.load(path: file), options: options, log: { log.append($0) }, progress: nil,
            blocksPerPack: blocksPerPack)
    }

    /// Run every shard of N one after another, then the reduce; the maps each shard ran.
    @discardableResult
    static func sharded(_ file: String, _ n: Int, blocksPerPack: Int = 64) throws -> [[String]] {
        var ran: [[String]] = []
        for i in 0..<n {
            ran.append(try runner(file, RunOptions(jobs: 2, shard: Shard(index: i, count: n)), blocksPerPack: blocksPerPack).run().map(\.name))
        }
        try runner(file, RunOptions(jobs: 2)).reduce(shards: nil)
        return ran
    }

    @Test func planIsDeterministicDisjointAndComplete() throws {
        let (folder, file) = try Self.collection("plan")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pipeline = try Pipeline.load(path: file)
        for n in [1, 2, 7, 16] {
            let a = ShardPlan(pipeline: pipeline, count: n, jobs: 2), b = ShardPlan(pipeline: pipeline, count: 1 == n ? 1 : n, jobs: 1)
            #expect(a.owners == b.owners)
            let split = try #require(a.composite), again = try #require(b.composite)
            #expect(split.hash == again.hash && split.ranges == again.ranges && split.cutZoom == again.cutZoom)
            // Every map in exactly one shard.
            #expect((0..<n).flatMap { a.maps(of: $0) }.sorted() == Array(pipeline.spec.maps.indices))
            // The runs at the cut zoom tile it: consecutive, from 0 to 4^cut.
            #expect(split.ranges.first?.lowerBound == 0)
            #expect(split.ranges.last?.upperBound == UInt64(1) << UInt64(2 * split.cutZoom))
            for (r, next) in zip(split.ranges, split.ranges.dropFirst()) { #expect(r.upperBound == next.lowerBound) }
            // Every block in exactly one shard, in order.
            let ranges = (0..<n).map { split.blockRange(of: $0) }
            #expect(ranges.first?.lowerBound == 0 && ranges.last?.upperBound == split.layout.blocks.count)
            for (r, next) in zip(ranges, ranges.dropFirst()) { #expect(r.upperBound == next.lowerBound) }
            #expect(split.cutZoom >= split.layout.zooms.min && split.cutZoom <= split.layout.blockZoom)
            let total: Int = a.loads.reduce(0, +), parts: Int = a.mapCosts.reduce(0, +) + split.costs.reduce(0, +)
            #expect(total == parts)
        }
        // Another shard count is another plan.
        #expect(ShardPlan(pipeline: pipeline, count: 2, jobs: 2).composite?.hash != ShardPlan(pipeline: pipeline, count: 3, jobs: 2).composite?.hash)
    }

    @Test func planOfManyMapsIsBalanced() throws {
        let folder = try TemporaryFolder.make("balance").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = try TestCollection.synthetic(in: folder, count: 400)
        let pipeline = try Pipeline.load(path: file)
        #expect(pipeline.spec.maps.count == 400)
        let plan = ShardPlan(pipeline: pipeline, count: 16, jobs: 2)
        #expect(plan.failures.isEmpty, "\(plan.failures)")
        #expect(plan.balance <= 1.15, "\(plan.text)")
        #expect(plan.text.contains("balance: max/mean"))
    }

    @Test func shardsGiveTheTilesOfOneMachine() throws {
        let (folder, file) = try Self.collection("equal")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let single = try Self.runner(file, RunOptions(jobs: 2)).run()
        #expect(single.count == 12)
        let all = folder + "/out/all.pmtiles"
        let (want, count) = try Self.digest(all)
        #expect(count > 30)
        let reader = try Tileset.openReader(at: all)
        #expect(reader.metadata.zooms.min < 3 && reader.metadata.zooms.max == 5)
        // The per-map tilesets of another work folder run by two shards.
        let twin = folder + "/twin.yml"
        try (try String(contentsOfFile: file, encoding: .utf8)).replacingOccurrences(of: "out/", with: "twin/")
            .appending("work: .tegula/twin\n").write(toFile: twin, atomically: true, encoding: .utf8)
        let ran = try Self.sharded(twin, 2)
        #expect(Set(ran[0]).isDisjoint(with: ran[1]) && ran[0].count + ran[1].count == 12)
        for m in single.map(\.name) {
            #expect(try Self.digest(folder + "/out/\(m).pmtiles").0 == Self.digest(folder + "/twin/\(m).pmtiles").0, "\(m)")
        }
        #expect(try Self.digest(folder + "/twin/all.pmtiles").0 == want)
        // The composite of 1, 7 and 16 shards (the maps are unchanged: only the composite reruns).
        for n in [1, 7, 16] {
            try FileManager.default.removeItem(atPath: all)
            try Self.sharded(file, n)
            #expect(try Self.digest(all) == (want, count), "\(n) shards")
        }
        // Parts are gone once merged; a rerun finds the composite unchanged.
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: folder + "/.tegula/collection/.composite/parts")) ?? []).isEmpty)
        let log = LoggedLines()
        try Self.runner(file, RunOptions(jobs: 2), log: log).run()
        #expect(log.all.contains { $0.hasPrefix("composite:  skipped (unchanged)") }, "\(log.all)")
    }

    @Test func retriedDuplicatedAndKilledShards() throws {
        let (folder, file) = try Self.collection("retry", maxZoom: 6)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let parts = folder + "/.tegula/collection/.composite/parts"
        for i in 0..<2 { try Self.runner(file, RunOptions(jobs: 2, shard: Shard(index: i, count: 2)), blocksPerPack: 1).run() }
        let fm = FileManager.default
        func snapshot(_ name: String) throws -> [String: String] {
            var s: [String: String] = [:]
            for f in try fm.subpathsOfDirectory(atPath: parts) where f.hasPrefix(name) {
                let a = try fm.attributesOfItem(atPath: parts + "/" + f)
                s[f] = "\(a[.systemFileNumber] ?? 0) \(a[.modificationDate] ?? "") \(fm.contents(atPath: parts + "/" + f)?.count ?? -1)"
            }
            return s
        }
        let other = try snapshot("part-0000-of-0002")
        #expect(other.count >= 3)
        // A retried index rebuilds its own part (forced) and touches nothing of the other's.
        try Self.runner(file, RunOptions(force: true, jobs: 2, shard: Shard(index: 1, count: 2)), blocksPerPack: 1).run()
        #expect(try snapshot("part-0000-of-0002") == other)
        // Two copies of one index at once (a pod run twice) leave one consistent part.
        let errors = LoggedLines()
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            do { try Self.runner(file, RunOptions(force: true, jobs: 1, shard: Shard(index: 1, count: 2)), blocksPerPack: 1).run() } catch {
                errors.append("\(error)")
            }
        }
        #expect(errors.all.isEmpty, "\(errors.all)")
        #expect(try snapshot("part-0000-of-0002") == other)
        // Killed: no record, the last packs lost or torn; the rerun keeps the committed packs.
        let dir = parts + "/part-0001-of-0002"
        let packs = try fm.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix("blocks-") }.sorted()
        #expect(packs.count >= 2)
        try fm.removeItem(atPath: parts + "/part-0001-of-0002.json")
        try fm.removeItem(atPath: dir + "/" + packs.last!)
        try? fm.removeItem(atPath: dir + "/upper.pack")
        try Data("torn".utf8).write(to: URL(fileURLWithPath: dir + "/." + packs.last! + ".123-456.tmp"))
        let log = LoggedLines()
        try Self.runner(file, RunOptions(jobs: 2, shard: Shard(index: 1, count: 2)), log: log, blocksPerPack: 1).run()
        #expect(log.all.contains { $0.contains("\(packs.count - 1) kept from an earlier run") }, "\(log.all)")
        try Self.runner(file, RunOptions(jobs: 2)).reduce(shards: nil)
        let reduced = try Self.digest(folder + "/out/all.pmtiles")
        try fm.removeItem(atPath: folder + "/.tegula/collection/.composite")
        try fm.removeItem(atPath: folder + "/out/all.pmtiles")
        try Self.runner(file, RunOptions(jobs: 2)).run()
        #expect(try Self.digest(folder + "/out/all.pmtiles") == reduced)
    }

    @Test func reduceRefusesBadParts() throws {
        let (folder, file) = try Self.collection("refuse")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fm = FileManager.default
        let parts = folder + "/.tegula/collection/.composite/parts"
        let out = folder + "/out/all.pmtiles"
        func reduceError(shards: Int? = nil) throws -> ShardError {
            do {
                try Self.runner(file, RunOptions(jobs: 2)).reduce(shards: shards)
            } catch let e as ShardError {
                #expect(!e.description.contains("\n"))
                #expect(!fm.fileExists(atPath: out))
                return e
            }
            Issue.record("the reduce was not refused")
            return ShardError(.noEngine, "")
        }
        #expect(try reduceError().reason == .missingParts)
        for i in 0..<3 { try Self.runner(file, RunOptions(jobs: 2, shard: Shard(index: i, count: 3))).run() }
        let record = { (i: Int) in parts + "/part-000\(i)-of-0003.json" }
        let saved = try (0..<3).map { try Data(contentsOf: URL(fileURLWithPath: record($0))) }
        func restore() throws { for i in 0..<3 { try saved[i].write(to: URL(fileURLWithPath: record(i))) } }

        try fm.removeItem(atPath: record(1))
        var e = try reduceError()
        #expect(e.reason == .missingParts && e.message.contains("missing parts 1 of 3"), "\(e)")
        try restore()

        try fm.copyItem(atPath: record(2), toPath: parts + "/part-0002-of-0003 copy.json")
        e = try reduceError()
        #expect(e.reason == .duplicateParts && e.message.contains("duplicate parts for shard 2 of 3"), "\(e)")
        try fm.removeItem(atPath: parts + "/part-0002-of-0003 copy.json")

        var r = try JSONDecoder().decode(PartRecord.self, from: saved[1])
        r.cutRange[0] = 0
        try CompositeParts.save(r, to: record(1))
        e = try reduceError()
        #expect(e.reason == .overlappingParts && e.message.contains("overlap"), "\(e)")
        try restore()

        // A pack whose bytes changed after its record was written.
        let pack = try fm.subpathsOfDirectory(atPath: parts).first {
            $0.hasSuffix(".pack") && (fm.contents(atPath: parts + "/" + $0)?.count ?? 0) > 2000
        }!
        var bytes = try #require(fm.contents(atPath: parts + "/" + pack))
        bytes[bytes.count - 10] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: parts + "/" + pack))
        e = try reduceError()
        #expect(e.reason == .corruptPart, "\(e)")
        bytes[bytes.count - 10] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: parts + "/" + pack))

        // Parts of 3 shards after the file changed (and more, of another shard count): stale.
        let text = try String(contentsOfFile: file, encoding: .utf8)
        try text.replacingOccurrences(of: "max_zoom: 5}}", with: "max_zoom: 5, attribution: changed}}")
            .write(toFile: file, atomically: true, encoding: .utf8)
        e = try reduceError()
        #expect(e.reason == .staleParts && e.message.contains("stale parts part-0000-of-0003, part-0001-of-0003, part-0002-of-0003"), "\(e)")
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        try Self.runner(file, RunOptions(jobs: 2, shard: Shard(index: 0, count: 2))).run()
        e = try reduceError()
        #expect(e.message.contains("parts for 2 and 3 shards; pass --shards N"), "\(e)")
        e = try reduceError(shards: 3)
        #expect(e.reason == .staleParts && e.message.contains("part-0000-of-0002"), "\(e)")
        try fm.removeItem(atPath: parts + "/part-0000-of-0002.json")
        // With the bad parts gone the same parts reduce.
        try Self.runner(file, RunOptions(jobs: 2)).reduce(shards: nil)
        #expect(Tileset.isTileset(at: out))
    }

    @Test func shardFromEngineVariables() throws {
        func shard(_ env: [String: String], _ shards: Int? = nil) throws -> String {
            let (s, engine) = try Shard.fromEngine(env, shards: shards)
            return "\(s) \(engine)"
        }
        func failure(_ env: [String: String], _ shards: Int? = nil) -> String {
            do { _ = try Shard.fromEngine(env, shards: shards); return "no error" } catch { return "\(error)" }
        }
        #expect(try shard(["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "8"]) == "3/8 Slurm")
        // sbatch --array=1-8: ids 1…8, the index counts from SLURM_ARRAY_TASK_MIN.
        #expect(try shard(["SLURM_ARRAY_TASK_ID": "8", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "8"]) == "7/8 Slurm")
        #expect(try shard(["JOB_COMPLETION_INDEX": "0"], 4) == "0/4 Kubernetes")
        #expect(try shard(["AWS_BATCH_JOB_ARRAY_INDEX": "9", "AWS_BATCH_JOB_ARRAY_SIZE": "10"]) == "9/10 AWS Batch")
        #expect(try shard(["AWS_BATCH_JOB_ARRAY_INDEX": "2"], 5) == "2/5 AWS Batch")
        #expect(
            failure([:]).contains(
                "--shard auto: no array index in the environment (SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX or AWS_BATCH_JOB_ARRAY_INDEX)"))
        #expect(
            failure(["JOB_COMPLETION_INDEX": "1"]).contains("Kubernetes gives the index (JOB_COMPLETION_INDEX=1) but not the count; pass --shards N"))
        #expect(failure(["SLURM_ARRAY_TASK_ID": "1"]).contains("SLURM_ARRAY_TASK_COUNT is not"))
        #expect(failure(["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "4"], 5).contains("Slurm runs 4 tasks but --shards says 5"))
        #expect(failure(["JOB_COMPLETION_INDEX": "4"], 4).contains("index 4 is not in 0..<4"))
        #expect(failure(["JOB_COMPLETION_INDEX": "x"], 4).contains("JOB_COMPLETION_INDEX='x' is not a whole number"))
        #expect(
            failure(["JOB_COMPLETION_INDEX": "1", "SLURM_ARRAY_TASK_ID": "1"], 4).contains(
                "both SLURM_ARRAY_TASK_ID and JOB_COMPLETION_INDEX are set"))
        #expect(try Shard.parse("3/16") == Shard(index: 3, count: 16))
        #expect(throws: ShardError.self) { try Shard.parse("16/16") }
        #expect(throws: ShardError.self) { try Shard.parse("3") }
    }
}
