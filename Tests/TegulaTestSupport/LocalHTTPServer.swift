import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real HTTP server started for a test on loopback, the one loopback-server helper of the
/// tests: the built `tegula serve` or `tegula edit`, nginx (Debian's nginx-light), moto's
/// S3-compatible server, or Python's `http.server` (which answers ranges with the whole file).
/// Each binds port 0 where it can and the port is read from what it announces, so no other
/// process can take it in between; it must announce and answer within a deadline, or the test
/// fails saying so. `stop()` kills it by its pid; a watchdog kills one a test forgot.
public final class LocalHTTPServer: @unchecked Sendable {
    /// The server process.
    public let process: Process
    /// Its port on 127.0.0.1.
    public let port: Int
    /// Its private folder (configuration, the log of its output; nginx's served files).
    public let folder: URL
    /// The folder nginx or Python serves.
    public let www: URL

    /// `http://127.0.0.1:PORT`.
    public var base: String { "http://127.0.0.1:\(port)" }

    /// A program of the project's Python environment; throws when `scripts/setup` has not made it.
    public static func venv(_ program: String) throws -> String {
        let p = PackageRoot.path(".venv/bin/\(program)")
        guard FileManager.default.isExecutableFile(atPath: p) else {
            throw ProgramRun.Failure(program: p, status: -1, stderr: "missing: run scripts/setup (it installs moto[server] into .venv)")
        }
        return p
    }

    /// Starts the server and waits until it answers. `port` nil: the server binds port 0 and
    /// the port is the one it announces on its output (`announce`'s capture), so no other process
    /// can take it in between. Up to 60 s for each step: moto imports its services on start, slow
    /// on a loaded machine.
    private init(
        _ executable: String, _ arguments: [String], port: Int?, folder: URL, www: URL? = nil,
        announce: Regex<(Substring, Substring)> = #/http://127\.0\.0\.1:(\d+)/#
    ) throws {
        let server = Process()
        server.executableURL = URL(fileURLWithPath: executable)
        server.environment = ProgramRun.childEnvironment(["PYTHONUNBUFFERED": "1"])
        server.arguments = arguments
        server.currentDirectoryURL = folder
        let log = folder.appendingPathComponent("server.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        server.standardOutput = try FileHandle(forWritingTo: log)
        server.standardError = try FileHandle(forWritingTo: log)
        try server.run()
        let pid = server.processIdentifier
        // A server a test forgot to stop is ended eventually, but not while its test may still
        // run: Swift Testing starts every test at once, and under a long suite a test's awaits
        // resumed over 600 s after its server started, which the former 600 s limit killed
        // (`motoS3ServesTheSameTilesAsTheLocalFile`: "connection refused" at 945 s and 1,194 s
        // into two full runs; 5.6 s alone).
        DispatchQueue.global().asyncAfter(deadline: .now() + 6 * 3600) {
            if server.isRunning && server.processIdentifier == pid { kill(pid, SIGKILL) }
        }
        func said() -> String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
        func fail(_ why: String) -> ProgramRun.Failure {
            if server.isRunning { kill(pid, SIGKILL) }
            server.waitUntilExit()
            return ProgramRun.Failure(program: executable, status: server.terminationStatus, stderr: "\(why): \(said())")
        }
        var announced = port
        let deadline = Date().addingTimeInterval(60)
        while announced == nil && server.isRunning && Date() < deadline {
            if let m = said().firstMatch(of: announce) { announced = Int(m.1) } else { usleep(50_000) }
        }
        guard let announced else {
            throw fail(server.isRunning ? "announced no port within 60 s" : "exited (status \(server.terminationStatus)) before it listened")
        }
        let base = "http://127.0.0.1:\(announced)"
        var answered = false
        for _ in 0..<240 where server.isRunning {
            if (try? ProgramRun.run("curl", ["-s", "-o", "/dev/null", "--max-time", "1", base + "/"]))?.status == 0 { answered = true; break }
            usleep(250_000)
        }
        guard answered else { throw fail("did not answer on \(base)") }
        process = server
        self.port = announced
        self.folder = folder
        self.www = www ?? folder.appendingPathComponent("www")
    }

    /// The built `tegula` (``BuiltTegula``) running `arguments` (`serve …` or `edit …`) with
    /// `--port 0`, read from the line it prints once it listens (`listening on`, `open`).
    public static func tegula(_ arguments: [String]) throws -> LocalHTTPServer {
        try LocalHTTPServer(
            try BuiltTegula.path(), arguments + ["--port", "0"], port: nil, folder: try TemporaryFolder.make("tegula"),
            announce: #/(?:listening on|open) http://127\.0\.0\.1:(\d+)/#)
    }

    /// What the server has written so far, stdout and stderr interleaved (all of it once stopped).
    public var output: String {
        (try? String(contentsOf: folder.appendingPathComponent("server.log"), encoding: .utf8)) ?? ""
    }

    /// Whether ``output`` holds `needle` within `seconds` (at once, when the server has stopped).
    public func output(contains needle: String, within seconds: TimeInterval = 30) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !output.contains(needle) {
            guard process.isRunning, Date() < deadline else { return output.contains(needle) }
            usleep(50_000)
        }
        return true
    }

    /// One answer fetched with curl, an HTTP client independent of Tegula's.
    public struct Answer {
        /// The status, -1 when curl got none.
        public var status: Int
        /// The body (empty for HEAD).
        public var body: Data
        /// The headers, names lower-cased.
        public var headers: [String: String]
    }

    /// GET (or HEAD) `target` with curl, with request `headers`.
    public func get(_ target: String, head: Bool = false, headers: [String: String] = [:]) throws -> Answer {
        let body = folder.appendingPathComponent("body-\(UUID())"), hdr = folder.appendingPathComponent("head-\(UUID())")
        defer { try? FileManager.default.removeItem(at: body); try? FileManager.default.removeItem(at: hdr) }
        let r = try ProgramRun.run(
            "curl",
            [
                "-s", "--max-time", "10", head ? "-I" : "-sS", "-o", body.path, "-D", hdr.path,
                "-w", "%{http_code}",
            ] + headers.sorted { $0.key < $1.key }.flatMap { ["-H", "\($0.key): \($0.value)"] }
                + [base + target])
        var fields: [String: String] = [:]
        for line in (try? String(contentsOf: hdr, encoding: .utf8))?.split(separator: "\r\n") ?? [] {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Answer(status: Int(r.stdout) ?? -1, body: (try? Data(contentsOf: body)) ?? Data(), headers: fields)
    }

    /// Ends the server (SIGKILL by pid) and waits for it.
    public func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// nginx serving `www` (a folder of this server's) as static files, with its own
    /// configuration, pid and logs and no daemon or master process, so no root is needed.
    /// `http` and `server` are more of the configuration's `http` and `server` blocks (an
    /// `alias` location, `limit_req`, hostile answers); `accessLog` keeps the requests for
    /// ``loggedRequests()``; `prepare` runs with the port before nginx starts, to write files that
    /// name it (an IIIF info.json's `id`).
    /// nginx cannot bind port 0 and say which port it got, so it is given a free port; if another
    /// process takes that port first, nginx fails to bind ("Address already in use") and is
    /// started again on another, `prepare` run again, up to 5 times.
    public static func nginx(
        http: String = "", server: String = "", accessLog: Bool = false,
        prepare: (_ port: Int) throws -> Void = { _ in }
    ) throws -> LocalHTTPServer {
        let folder = try TemporaryFolder.make("nginx")
        let www = folder.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
        let d = folder.path
        for attempt in 1...5 {
            let port = try freePort()
            try prepare(port)
            let conf = """
                daemon off;
                master_process off;
                pid \(d)/nginx.pid;
                error_log \(d)/error.log;
                events { worker_connections 256; }
                http {
                    \(accessLog ? "access_log \(d)/access.log;" : "access_log off;")
                    client_body_temp_path \(d)/tmp-body; proxy_temp_path \(d)/tmp-proxy; fastcgi_temp_path \(d)/tmp-fcgi;
                    uwsgi_temp_path \(d)/tmp-uwsgi; scgi_temp_path \(d)/tmp-scgi;
                    \(http)
                    server {
                        listen 127.0.0.1:\(port);
                        root \(www.path);
                        \(server)
                    }
                }
                """
            try conf.write(to: folder.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
            do {
                return try LocalHTTPServer(
                    "/usr/sbin/nginx", ["-p", d, "-c", d + "/nginx.conf", "-e", d + "/error.log"],
                    port: port, folder: folder)
            } catch let e as ProgramRun.Failure where attempt < 5 {
                let errors = (try? String(contentsOfFile: d + "/error.log", encoding: .utf8)) ?? ""
                guard (e.stderr + errors).contains("Address already in use") else { throw e }
                try? FileManager.default.removeItem(atPath: d + "/error.log")
            }
        }
        throw POSIXError(.EADDRINUSE)
    }

    /// The requests nginx logged so far (its access log's lines; `nginx(accessLog: true)`), for
    /// counting what a client fetched.
    public func loggedRequests() -> [String] {
        let text = (try? String(contentsOf: folder.appendingPathComponent("access.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    /// The `iiif` package's `iiif_testserver.py` (Flask) serving every image in `images` as Image
    /// API 3.0, level 1, at `http://127.0.0.1:PORT/3.0_pil/{file stem}`. It names its images by the
    /// port it is given (with `--port 0` their ids say port 0), so, as nginx, it gets a free port
    /// and is started again on another when that one was taken first, up to 5 times.
    public static func iiifTestServer(images: URL) throws -> LocalHTTPServer {
        for attempt in 1...5 {
            let port = try freePort()
            do {
                return try LocalHTTPServer(
                    try venv("python3"),
                    [
                        try venv("iiif_testserver.py"), "-d", images.path, "--host", "127.0.0.1",
                        "--port", "\(port)", "--api-versions", "3.0", "-q",
                    ],
                    port: port, folder: try TemporaryFolder.make("iiif-testserver"))
            } catch let e as ProgramRun.Failure where attempt < 5 && e.stderr.contains("Address already in use") {
                continue
            }
        }
        throw POSIXError(.EADDRINUSE)
    }

    /// Runs the `iiif` package's `iiif_static.py` on `image`: level-0 files for Image API 2.1 with
    /// `tile`-pixel tiles in `output/identifier/`, whose info.json names
    /// `http://127.0.0.1:PORT/iiif/identifier`.
    public static func writeIIIFStatic(_ image: URL, identifier: String, tile: Int, port: Int, into output: URL) throws {
        try? FileManager.default.removeItem(at: output.appendingPathComponent(identifier))
        try ProgramRun.output(
            try venv("python3"),
            [
                try venv("iiif_static.py"), "-d", output.path, "-t", "\(tile)", "-a", "2.1",
                "-p", "http://127.0.0.1:\(port)/iiif", "-i", identifier, image.path,
            ])
    }

    /// Puts `file` at `name` in nginx's folder the way a deploy replaces a file: a copy renamed
    /// over the old one.
    public func publish(_ file: URL, as name: String) throws {
        let tmp = www.appendingPathComponent(".\(name).tmp")
        try? FileManager.default.removeItem(at: tmp)
        try FileManager.default.copyItem(at: file, to: tmp)
        guard rename(tmp.path, www.appendingPathComponent(name).path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    /// moto's S3-compatible server (`moto_server` from `.venv`), empty.
    public static func moto() throws -> LocalHTTPServer {
        let folder = try TemporaryFolder.make("moto")
        return try LocalHTTPServer(try venv("moto_server"), ["-H", "127.0.0.1", "-p", "0"], port: nil, folder: folder)
    }

    /// Uploads `file` to moto as BUCKET/KEY, readable without credentials (S3's `public-read`),
    /// creating the bucket if needed; the path-style URL of the object.
    @discardableResult
    public func s3Put(_ file: URL, bucket: String, key: String, acl: String = "public-read") throws -> String {
        let script = """
            import sys, boto3
            s3 = boto3.client("s3", endpoint_url=sys.argv[1], region_name="us-east-1",
                              aws_access_key_id="test", aws_secret_access_key="test")
            if sys.argv[2] not in [b["Name"] for b in s3.list_buckets()["Buckets"]]:
                s3.create_bucket(Bucket=sys.argv[2])
            with open(sys.argv[4], "rb") as f:
                s3.put_object(Bucket=sys.argv[2], Key=sys.argv[3], Body=f.read(), ACL=sys.argv[5])
            """
        try ProgramRun.output(try Self.venv("python3"), ["-c", script, base, bucket, key, file.path, acl])
        return "\(base)/\(bucket)/\(key)"
    }

    /// Python's `http.server` over `folder` (nil: an empty `www` of its own): it answers a
    /// range request with the whole file (200).
    public static func python(serving folder: URL? = nil) throws -> LocalHTTPServer {
        let own = try TemporaryFolder.make("pyhttp")
        let www = folder ?? own.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
        return try LocalHTTPServer(
            "/usr/bin/python3",
            [
                "-u", "-m", "http.server", "0", "--bind", "127.0.0.1",
                "--directory", www.path,
            ], port: nil, folder: own, www: www)
    }

    /// A port no one listens on now (the kernel's choice for a socket bound to port 0), for a
    /// server that cannot bind port 0 and report it (nginx), or an address nobody answers.
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        defer { close(fd) }
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &a) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) == 0 && getsockname(fd, $0, &len) == 0 }
        }
        guard ok else { throw POSIXError(.EADDRINUSE) }
        return Int(UInt16(bigEndian: a.sin_port))
    }
}
