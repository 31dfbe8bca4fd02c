// The gzip fuzz body (FuzzCase): gzip members as PMTiles directories and metadata hold them,
// decompressed under a 1 MiB budget (bombs must be refused, not allocated), and what came out
// compressed and read back the same. Run by Fuzz/Targets/gzip.swift (joined to TegulaDeflate by
// scripts/fuzz) and by FuzzReplayTests.
#if !TEGULA_FUZZ_TARGET
    import TegulaDeflate
    import TegulaTestSupport
#endif

enum GzipFuzz {
    static let budget = 1 << 20

    static func run(_ bytes: [UInt8], _ c: inout FuzzCase) {
        guard let out = c.attempt({ try Gzip.decompress(bytes, limit: budget) }) else { return }
        c.check(out.count <= budget, "\(out.count) bytes out of a \(budget)-byte budget")
        c.check((try? Gzip.decompress(Gzip.compress(out, level: 1), limit: budget)) == out, "compress → decompress is the identity")
    }
}
