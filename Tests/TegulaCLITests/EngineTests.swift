import Foundation
import TegulaTestSupport
import Testing

/// A collection on the engines clusters have: a real one-node Slurm (`scripts/slurm-local`)
/// running `deploy/slurm/collection.sbatch` as an array plus a dependent reduce; Kubernetes
/// Indexed Jobs and AWS Batch arrays through the variables they set. Each against the tiles of
/// one machine.
@Suite(.serialized, .timeLimit(.minutes(20))) struct EngineTests {
    static let root = PackageRoot.url.path

    /// A generated collection of `sheets` sheets in a fresh folder, and the digests of one
    /// machine's run of it in a copy (composite and every sheet).
    static func collection(_ label: String, sheets: Int) throws -> (folder: String, file: String, want: [String: String]) {
        let folder = try TemporaryFolder.make(label).path
        let file = try TestCollection.make(in: folder + "/shared", sheets: sheets, upsample: 1, maxZoom: 4)
        let single = folder + "/single"
        try FileManager.default.createDirectory(atPath: single, withIntermediateDirectories: true)
        for f in ["scans", "gcps", "masks", "sheets.csv", "collection.yml"] {
            try FileManager.default.copyItem(atPath: folder + "/shared/" + f, toPath: single + "/" + f)
        }
        let r = try TegulaBinary.run(["run", single + "/collection.yml", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        return (folder, file, try digests(single + "/out"))
    }

    static func digests(_ out: String) throws -> [String: String] {
        var d: [String: String] = [:]
        for f in try FileManager.default.contentsOfDirectory(atPath: out) where f.hasSuffix(".pmtiles") {
            d[f] = try TilesetDigest.of(out + "/" + f).digest
        }
        return d
    }

    /// Slurm's daemons starting and stopping and `sbatch --wait` on its scheduler are waited for
    /// off the cooperative pool (``OffPool``): mostly idle, these waits held one of its two threads
    /// for most of the test while the rest of the suite queued for it.
    @Test func collectionThroughSlurmArrayAndDependentReduce() async throws {
        let start = try await OffPool.run { try ProgramRun.run(Self.root + "/scripts/slurm-local", ["start"]) }
        #expect(start.status == 0, "slurm-local: \(start.stderr)")
        guard start.status == 0 else { return }
        var failure: (any Error)?
        do { try await Self.arrayAndDependentReduce() } catch { failure = error }
        // Daemons this test started stop with it; a cluster already running is left as it was.
        if start.stdout.hasSuffix("started\n") { _ = try? await OffPool.run { try ProgramRun.run(Self.root + "/scripts/slurm-local", ["stop"]) } }
        if let failure { throw failure }
    }

    /// The Slurm test's collection run as an array of four shards and a dependent reduce, then a
    /// failing array whose reduce is cancelled, on the cluster already started.
    static func arrayAndDependentReduce() async throws {
        let (folder, file, want) = try Self.collection("slurm", sheets: 8)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let shared = folder + "/shared"
        let script = Self.root + "/deploy/slurm/collection.sbatch"
        let env = "--export=ALL,TEGULA=\(try TegulaBinary.url.path)"
        let array = try ProgramRun.run("sbatch", ["--parsable", "--array=0-3", "--chdir", shared, env, script, file])
        #expect(array.status == 0, "\(array.stderr)")
        let job = array.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(Int(job) != nil, "sbatch printed '\(job)'")
        let reduce = try await OffPool.run {
            try ProgramRun.run(
                "sbatch",
                [
                    "--parsable", "--wait", "--dependency=afterok:\(job)", "--time=10", "--chdir", shared,
                    "--output=reduce.log", env, script, file, "reduce",
                ])
        }
        let logs = try FileManager.default.contentsOfDirectory(atPath: shared).filter { $0.hasSuffix(".log") }.sorted()
        let logText = logs.map { (try? String(contentsOfFile: shared + "/" + $0, encoding: .utf8)) ?? "" }.joined(separator: "\n")
        #expect(reduce.status == 0, "reduce job: \(reduce.stderr) \(logText)")
        // Four array tasks (tegula-JOB_0.log … _3) and the reduce, each with its own log.
        #expect(logs == ["reduce.log"] + (0..<4).map { "tegula-\(job)_\($0).log" }, "\(logs)")
        #expect(try Self.digests(shared + "/out") == want, "\(logText)")
        // The array's tasks ran as shards 0–3 of 4, each named by --shard auto.
        #expect(logText.contains("shard 3/4 from Slurm"), "\(logText)")

        // A shard that fails leaves the reduce's dependency unsatisfiable: the script's
        // `--kill-on-invalid-dep=yes` cancels the reduce, and `sbatch --wait` returns at once
        // instead of waiting for ever (the watchdog's 2 minutes are the bound).
        let failed = try ProgramRun.run(
            "sbatch",
            [
                "--parsable", "--array=0-1", "--time=10", "--chdir", shared, env, script,
                folder + "/missing.yml",
            ])
        let failedJob = failed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(failed.status == 0 && Int(failedJob) != nil, "\(failed.stderr)")
        let orphan = try await OffPool.run {
            try ProgramRun.run(
                "sbatch",
                [
                    "--parsable", "--wait", "--dependency=afterok:\(failedJob)", "--time=10",
                    "--chdir", shared, "--output=orphan.log", env, script, file, "reduce",
                ], limit: 120)
        }
        // sbatch --wait says 0 for a job cancelled before it ran: the controller says what became of it.
        let orphanJob = orphan.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let state = try ProgramRun.run("scontrol", ["show", "job", orphanJob]).stdout
        #expect(state.contains("JobState=CANCELLED") && state.contains("Reason=DependencyNeverSatisfied"), "\(state)")
        #expect(!FileManager.default.fileExists(atPath: shared + "/orphan.log"), "the reduce of a failed array started")
    }

    @Test func kubernetesAndAWSBatchThroughTheirVariables() throws {
        let (folder, file, want) = try Self.collection("k8s", sheets: 6)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // An Indexed Job of 3 completions: JOB_COMPLETION_INDEX, the count from --shards.
        for i in 0..<3 {
            let r = try ProgramRun.run(
                try TegulaBinary.url.path, ["run", file, "--shard", "auto", "--shards", "3", "--quiet"],
                environment: ["JOB_COMPLETION_INDEX": "\(i)"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stderr.contains("tegula: shard \(i)/3 from Kubernetes"), "\(r.stderr)")
        }
        let missing = try ProgramRun.run(
            try TegulaBinary.url.path, ["run", file, "--shard", "auto", "--quiet"],
            environment: ["JOB_COMPLETION_INDEX": "0"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("pass --shards N (the Job's completions)"), "\(missing.stderr)")
        let check = try TegulaBinary.run(["run", file, "--stage", "reduce", "--dry-run"])
        #expect(check.status == 0 && check.stdout.contains("reduce: 3 parts of 3"), "\(check.stdout)\(check.stderr)")
        let reduce = try TegulaBinary.run(["run", file, "--stage", "reduce", "--quiet"])
        #expect(reduce.status == 0, "\(reduce.stderr)")
        let shared = (file as NSString).deletingLastPathComponent
        #expect(try Self.digests(shared + "/out") == want)
        // An AWS Batch array of 2 children over the same collection, after the file changed
        // nothing: the composite is rebuilt by the new split and equal again.
        try FileManager.default.removeItem(atPath: shared + "/out/all.pmtiles")
        for i in 0..<2 {
            let r = try ProgramRun.run(
                try TegulaBinary.url.path, ["run", file, "--shard", "auto", "--quiet"],
                environment: ["AWS_BATCH_JOB_ARRAY_INDEX": "\(i)", "AWS_BATCH_JOB_ARRAY_SIZE": "2"])
            #expect(r.status == 0 && r.stderr.contains("shard \(i)/2 from AWS Batch"), "\(r.stderr)")
        }
        #expect(try TegulaBinary.run(["run", file, "--stage", "reduce", "--quiet"]).status == 0)
        #expect(try Self.digests(shared + "/out") == want)
        // No engine: one clear line.
        let none = try ProgramRun.run(try TegulaBinary.url.path, ["run", file, "--shard", "auto"], environment: [:])
        #expect(none.status == 1 && none.stderr.hasPrefix("tegula: --shard auto: no array index in the environment"), "\(none.stderr)")
    }

    @Test func dryRunPrintsTheShardPlan() throws {
        let folder = try TemporaryFolder.make("plan").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = try TestCollection.make(in: folder, sheets: 8, upsample: 1, maxZoom: 4)
        let r = try TegulaBinary.run(["run", file, "--dry-run", "--shards", "4"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("shard  maps   map Mpx  cut tiles   blocks  composite Mpx  total Mpx"), "\(r.stdout)")
        #expect(r.stdout.contains("balance: max/mean"))
        let one = try TegulaBinary.run(["run", file, "--dry-run", "--shard", "1/4"])
        #expect(one.stdout.contains("listing shard 1/4"), "\(one.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["collection.yml", "gcps", "masks", "scans", "sheets.csv"])
        let bad = try TegulaBinary.run(["run", file, "--shard", "4/4"])
        #expect(bad.status != 0 && bad.stderr.contains("--shard"), "\(bad.stderr)")
    }
}
