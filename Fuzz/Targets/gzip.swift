// libFuzzer target: gzip members as PMTiles directories and metadata hold them, decompressed
// under a 1 MiB budget (bombs must be refused, not allocated). Joined to TegulaDeflate.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGzip(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    if let out = try? Gzip.decompress(bytes, limit: 1 << 20) {
        precondition(out.count <= 1 << 20)
        precondition((try? Gzip.decompress(Gzip.compress(out, level: 1), limit: 1 << 20)) == out)
    }
    return 0
}
