import Foundation
import TegulaSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// ``HTTPTransport`` on Foundation's URLSession (libcurl underneath on Linux, through
/// FoundationNetworking): one session, its connections kept alive and shared by every request,
/// at most `connectionsPerHost` to one host (more wait for one). Nothing is cached, stored or sent
/// behind the caller's back: no URL cache, no cookies, no stored credentials, and
/// `Accept-Encoding: identity`, so a body is the server's bytes. Each request has a deadline for
/// the whole exchange, redirects are followed up to the request's cap (a URL visited twice is a
/// loop), and a body is read up to the request's cap, then cut.
public final class URLSessionTransport: HTTPTransport {
    private let connectionsPerHost: Int
    private let exchanges = Exchanges()
    private let opened = Locked<URLSession?>(nil)

    /// A transport of its own session (opened at the first request), at most `connectionsPerHost`
    /// connections to one host.
    public init(connectionsPerHost: Int = 8) {
        self.connectionsPerHost = max(1, connectionsPerHost)
    }

    deinit { opened.current?.finishTasksAndInvalidate() }

    /// The session, made at the first request.
    private var session: URLSession {
        opened.withLock { s in
            if let s { return s }
            let made = Self.session(connectionsPerHost: connectionsPerHost, delegate: exchanges)
            s = made
            return made
        }
    }

    private static func session(connectionsPerHost: Int, delegate: Exchanges) -> URLSession {
        let c = URLSessionConfiguration.ephemeral
        c.urlCache = nil
        c.requestCachePolicy = .reloadIgnoringLocalCacheData
        c.httpCookieStorage = nil
        c.httpShouldSetCookies = false
        c.urlCredentialStorage = nil
        c.httpMaximumConnectionsPerHost = connectionsPerHost
        // Backstops only: each request's own deadline (`HTTPRequest.timeout`) ends it first.
        c.timeoutIntervalForRequest = 24 * 3600
        c.timeoutIntervalForResource = 24 * 3600
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.name = "TegulaFetch.URLSessionTransport"
        return URLSession(configuration: c, delegate: delegate, delegateQueue: queue)
    }

    /// The answer to `request`: any status, the body up to its cap; or why none came.
    public func send(_ request: HTTPRequest) async throws(TransportFailure) -> HTTPResponse {
        let c = request.timeout.components
        let seconds = Double(c.seconds) + Double(c.attoseconds) / 1e18
        var r = URLRequest(url: request.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: seconds.rounded(.up) + 5)
        r.httpMethod = "GET"
        for (name, value) in request.headers { r.setValue(value, forHTTPHeaderField: name) }
        if r.value(forHTTPHeaderField: "Accept-Encoding") == nil { r.setValue("identity", forHTTPHeaderField: "Accept-Encoding") }
        let task = session.dataTask(with: r)
        let exchange = Exchange(request)
        let id = task.taskIdentifier
        exchanges.table.withLock { $0[id] = exchange }
        defer { _ = exchanges.table.withLock { $0.removeValue(forKey: id) } }
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { exchange.start(task, answering: $0) }
        } onCancel: {
            exchange.finish(failing: .cancelled)
        }
        return try outcome.get()
    }
}

/// One request in flight: what has come so far, and the one place its caller is answered (by
/// the session's completion, a cut body, the deadline or a cancellation, whichever is first).
final class Exchange: @unchecked Sendable {
    typealias Outcome = Result<HTTPResponse, TransportFailure>

    struct State {
        var continuation: CheckedContinuation<Outcome, Never>?
        var task: URLSessionTask?
        var early: TransportFailure?
        var response: HTTPURLResponse?
        var body: [UInt8] = []
        var redirects = 0
        var visited: Set<String> = []
        var done = false
    }

    let request: HTTPRequest
    private let state = Locked(State())

    init(_ request: HTTPRequest) {
        self.request = request
        state.withLock { _ = $0.visited.insert(request.url.absoluteString) }
    }

    /// Starts `task`, answering `continuation` once; a cancellation that came first answers at once.
    func start(_ task: URLSessionTask, answering continuation: CheckedContinuation<Outcome, Never>) {
        let early = state.withLock { s -> TransportFailure? in
            if let e = s.early { return e }
            s.continuation = continuation
            s.task = task
            return nil
        }
        if let early { return continuation.resume(returning: .failure(early)) }
        let timeout = request.timeout
        DispatchQueue.global().asyncAfter(
            deadline: .now()
                + .nanoseconds(
                    Int(timeout.components.seconds) * 1_000_000_000
                        + Int(timeout.components.attoseconds / 1_000_000_000))
        ) {
            [weak self] in self?.finish(failing: .timedOut(after: timeout))
        }
        task.resume()
    }

    /// The headers of an answer: cut at once when it declares a body over the cap.
    func received(_ response: URLResponse) {
        guard let http = response as? HTTPURLResponse else { return }
        state.withLock { $0.response = http }
        if http.expectedContentLength > Int64(request.maxBodyBytes) { finishCut() }
    }

    /// More of the body: kept up to the cap, the answer cut beyond it.
    func received(_ data: Data) {
        let over = state.withLock { s -> Bool in
            let room = request.maxBodyBytes - s.body.count
            s.body += data.prefix(max(0, room))
            return data.count > room
        }
        if over { finishCut() }
    }

    /// Whether to follow a redirect to `url`: no after the request's cap (0: the redirect is the
    /// answer) or to a URL already visited, which fail.
    func redirect(to url: URL?) -> Bool {
        guard request.maxRedirects > 0 else { return false }
        let failure = state.withLock { s -> TransportFailure? in
            s.redirects += 1
            guard let u = url?.absoluteString, s.visited.insert(u).inserted else { return .redirectLoop }
            return s.redirects > request.maxRedirects ? .tooManyRedirects(max: request.maxRedirects) : nil
        }
        guard let failure else { return true }
        // Answered now, but not cancelled: URLSession ends the task itself with the redirect as
        // its answer (cancelling it while it waits for this decision would trap in
        // FoundationNetworking).
        finish(failing: failure, cancelling: false)
        return false
    }

    /// The session's end of the task: the answer, or its error as a failure.
    func completed(_ error: (any Error)?) {
        if let error {
            finish(failing: TransportFailure(error, timeout: request.timeout, maxRedirects: request.maxRedirects))
        } else {
            finish(truncated: false)
        }
    }

    /// Answers with what came, cut, and stops the transfer.
    private func finishCut() { finish(truncated: true) }

    private func finish(truncated: Bool) {
        let taken = state.withLock { s -> (CheckedContinuation<Outcome, Never>, URLSessionTask?, Outcome)? in
            guard !s.done, let c = s.continuation else { return nil }
            s.done = true
            guard let r = s.response ?? s.task?.response as? HTTPURLResponse else { return (c, s.task, .failure(.connectionLost)) }
            var headers: [String: String] = [:]
            for (k, v) in r.allHeaderFields { headers["\(k)"] = "\(v)" }
            let answer = HTTPResponse(
                url: request.url.absoluteString, status: r.statusCode, headers: headers, body: s.body,
                isTruncated: truncated, maxBodyBytes: request.maxBodyBytes)
            return (c, s.task, .success(answer))
        }
        guard let (continuation, task, outcome) = taken else { return }
        if truncated { task?.cancel() }
        continuation.resume(returning: outcome)
    }

    /// Answers with `failure` (unless already answered) and stops the transfer, unless `cancelling` is false.
    func finish(failing failure: TransportFailure, cancelling: Bool = true) {
        let taken = state.withLock { s -> (CheckedContinuation<Outcome, Never>?, URLSessionTask?)? in
            guard !s.done else { return nil }
            guard let c = s.continuation else {
                if s.early == nil { s.early = failure }  // not started yet: start answers it
                return nil
            }
            s.done = true
            return (c, s.task)
        }
        guard let (continuation, task) = taken else { return }
        if cancelling { task?.cancel() }
        continuation?.resume(returning: .failure(failure))
    }
}

/// The session's delegate: hands each task's events to its ``Exchange``.
final class Exchanges: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    let table = Locked([Int: Exchange]())

    private func exchange(_ task: URLSessionTask) -> Exchange? { table.withLock { $0[task.taskIdentifier] } }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        exchange(dataTask)?.received(response)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        exchange(dataTask)?.received(data)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        let follow = exchange(task)?.redirect(to: request.url) ?? false
        completionHandler(follow ? request : nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        exchange(task)?.completed(error)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, willCacheResponse proposedResponse: CachedURLResponse,
        completionHandler: @escaping @Sendable (CachedURLResponse?) -> Void
    ) {
        completionHandler(nil)
    }
}
