import Foundation
import TegulaFetch
import TegulaSupport

/// A client of IIIF image services (Image API 2.x and 3.0, levels 0–2): opens an info.json by
/// URL and fetches through a polite fetcher on the program's transport and an optional disk cache.
public final class IIIFClient: Sendable {
    /// Caps on claims and answers.
    public let limits: IIIFLimits
    /// Connections, retries, name.
    public let politeness: IIIFPoliteness
    /// Where answers are kept between runs; nil fetches everything afresh.
    public let cache: IIIFCache?
    let transport: IIIFTransport

    /// A client sending its requests through `transport` (made once where the program starts and
    /// shared), with these caps, manners and cache.
    public init(
        transport: any HTTPTransport, limits: IIIFLimits = IIIFLimits(), politeness: IIIFPoliteness = IIIFPoliteness(),
        cache: IIIFCache?
    ) {
        self.limits = limits
        self.politeness = politeness
        self.cache = cache
        self.transport = IIIFTransport(on: transport, politeness: politeness, limits: limits)
    }

    /// What was fetched so far: requests, retries, bytes, cache hits.
    public var counts: IIIFFetchCounts { transport.counts.current }

    /// The info.json URL for a service given by its id or by its info.json: `…/info.json`.
    public static func infoURL(_ url: String) -> String {
        var u = url
        if let q = u.firstIndex(where: { $0 == "?" || $0 == "#" }) { u = String(u[..<q]) }
        while u.hasSuffix("/") { u.removeLast() }
        return u.hasSuffix("/info.json") ? u : u + "/info.json"
    }

    /// Opens the image service at `url` (its id, or its info.json): the description, read
    /// afresh or revalidated against the cache (`If-None-Match`, `If-Modified-Since`), checked
    /// against the caps.
    public func open(_ url: String) async throws(IIIFError) -> IIIFImageService {
        let infoURL = Self.infoURL(url)
        let cached = cache?.load(infoURL)
        var headers = ["Accept": "application/ld+json, application/json"]
        if let tag = cached?.etag { headers["If-None-Match"] = tag }
        if let date = cached?.lastModified { headers["If-Modified-Since"] = date }
        let answer = try await transport.get(infoURL, headers: headers, maxBytes: limits.maxInfoBytes)
        if answer.status == 304 { transport.counts.withLock { $0.revalidated += 1 } }
        guard answer.status == 200 || cached != nil else {
            throw IIIFError(.status(304), at: infoURL, "HTTP 304 Not Modified to a request without validators; expected 200")
        }
        let body = answer.status == 304 ? cached?.body ?? [] : answer.body
        let info = try IIIFImageInfo.decode(body, from: infoURL)
        try limits.check(info, at: infoURL)
        if answer.status == 200 {  // only a valid description is kept
            try cache?.store(
                IIIFCache.Entry(
                    key: infoURL, etag: answer.header("ETag"), lastModified: answer.header("Last-Modified"),
                    contentType: answer.header("Content-Type"), size: body.count, body: body))
        }
        var digest = FNV1a()
        digest.update(body)
        return try IIIFImageService(info: info, infoURL: infoURL, version: digest.hex, client: self)
    }

    /// A JSON document at `url` (a Georeference Annotation, say), read afresh or revalidated
    /// against the cache like an info.json, at most ``IIIFLimits/maxInfoBytes``.
    public func document(_ url: String) async throws(IIIFError) -> [UInt8] {
        let cached = cache?.load(url)
        var headers = ["Accept": "application/ld+json, application/json"]
        if let tag = cached?.etag { headers["If-None-Match"] = tag }
        if let date = cached?.lastModified { headers["If-Modified-Since"] = date }
        let answer = try await transport.get(url, headers: headers, maxBytes: limits.maxInfoBytes)
        if answer.status == 304, let cached {
            transport.counts.withLock { $0.revalidated += 1 }
            return cached.body
        }
        guard answer.status == 200 else {
            throw IIIFError(.status(answer.status), at: url, "HTTP \(answer.status); expected 200 and a JSON document")
        }
        try cache?.store(
            IIIFCache.Entry(
                key: url, etag: answer.header("ETag"), lastModified: answer.header("Last-Modified"),
                contentType: answer.header("Content-Type"), size: answer.body.count, body: answer.body))
        return answer.body
    }

    /// The body at `url` for cache key `key`: from the cache when there (an image under an unchanged
    /// info.json never changes, so it is not revalidated), else fetched and stored.
    func fetch(_ url: String, key: String, maxBytes: Int, check: ([UInt8], String?) throws(IIIFError) -> Void) async throws(IIIFError) -> [UInt8] {
        if let hit = cache?.load(key) {
            transport.counts.withLock { $0.cacheHits += 1 }
            return hit.body
        }
        let answer = try await transport.get(url, maxBytes: maxBytes)
        guard answer.status == 200 else {
            throw IIIFError(.status(answer.status), at: url, "HTTP \(answer.status) to an unconditional request; expected 200")
        }
        try check(answer.body, answer.header("Content-Type"))
        try cache?.store(
            IIIFCache.Entry(
                key: key, etag: answer.header("ETag"), lastModified: answer.header("Last-Modified"),
                contentType: answer.header("Content-Type"), size: answer.body.count, body: answer.body))
        return answer.body
    }
}
