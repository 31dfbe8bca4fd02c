import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// IIIF image servers started for a test on loopback ports: nginx serving `iiif_static.py`'s
/// level-0 files (optionally rate-limited: `limit_req` answering 429, or with extra locations for
/// hostile answers), and the `iiif` package's `iiif_testserver.py` (level 1, Flask). `stop()`
/// kills the server by its pid.
public final class IIIFTestServer: @unchecked Sendable {
    /// The server process.
    public let process: Process
    /// Its port on 127.0.0.1.
    public let port: Int
    /// Its private folder (configuration, log).
    public let folder: URL

    /// `http://127.0.0.1:PORT`.
    public var base: String { "http://127.0.0.1:\(port)" }

    private init(_ executable: String, _ arguments: [String], port: Int, folder: URL, probe: String) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        p.environment = ProgramRun.childEnvironment(["PYTHONUNBUFFERED": "1"])
        p.currentDirectoryURL = folder
        let log = folder.appendingPathComponent("server.log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        p.standardOutput = try FileHandle(forWritingTo: log)
        p.standardError = try FileHandle(forWritingTo: log)
        try p.run()
        let pid = p.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + 3600) {
            if p.isRunning && p.processIdentifier == pid { kill(pid, SIGKILL) }
        }
        var answered = false
        for _ in 0..<240 where p.isRunning {
            if (try? ProgramRun.run("curl", ["-s", "-o", "/dev/null", "--max-time", "1", "http://127.0.0.1:\(port)\(probe)"]))?.status == 0 {
                answered = true
                break
            }
            usleep(250_000)
        }
        guard answered else {
            if p.isRunning { kill(pid, SIGKILL) }
            p.waitUntilExit()
            let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw ProgramRun.Failure(program: executable, status: p.terminationStatus, stderr: "did not answer on port \(port): \(said)")
        }
        process = p
        self.port = port
        self.folder = folder
    }

    /// Ends the server (SIGKILL by pid) and waits for it.
    public func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Runs `iiif_static.py` on `image`: level-0 files for Image API 2.1 with `tile`-pixel tiles
    /// in `output/identifier/`, whose info.json names `http://127.0.0.1:PORT/iiif/identifier`.
    public static func writeStatic(_ image: URL, identifier: String, tile: Int, port: Int, into output: URL) throws {
        try ProgramRun.output(try LocalHTTPServer.venv("python3"),
                              [try LocalHTTPServer.venv("iiif_static.py"), "-d", output.path, "-t", "\(tile)", "-a", "2.1",
                               "-p", "http://127.0.0.1:\(port)/iiif", "-i", identifier, image.path])
    }

    /// nginx on `port` serving `root` at `/iiif/`; `rateLimit` adds `limit_req` (15 r/s, burst 4,
    /// answering 429) there; `extra` is more of the server block (hostile locations).
    public static func nginx(root: URL, port: Int, rateLimit: Bool = false, extra: String = "") throws -> IIIFTestServer {
        let folder = try TemporaryFolder.make("iiif-nginx")
        let d = folder.path
        let conf = """
        daemon off;
        master_process off;
        pid \(d)/nginx.pid;
        error_log \(d)/error.log;
        events { worker_connections 256; }
        http {
            access_log \(d)/access.log;
            types { application/json json; image/jpeg jpg; image/png png; image/webp webp; text/html html; }
            client_body_temp_path \(d)/tmp-body; proxy_temp_path \(d)/tmp-proxy; fastcgi_temp_path \(d)/tmp-fcgi;
            uwsgi_temp_path \(d)/tmp-uwsgi; scgi_temp_path \(d)/tmp-scgi;
            limit_req_zone $binary_remote_addr zone=lim:1m rate=15r/s;
            limit_req_status 429;
            server {
                listen 127.0.0.1:\(port);
                location = / { return 204; }
                location /iiif/ { alias \(root.path)/; \(rateLimit ? "limit_req zone=lim burst=4 nodelay;" : "") }
                \(extra)
            }
        }
        """
        try conf.write(to: folder.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
        return try IIIFTestServer("/usr/sbin/nginx", ["-p", d, "-c", d + "/nginx.conf", "-e", d + "/error.log"],
                                  port: port, folder: folder, probe: "/")
    }

    /// Requests nginx logged so far (its access log's lines), for counting what a client fetched.
    public func loggedRequests() -> [String] {
        let text = (try? String(contentsOf: folder.appendingPathComponent("access.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    /// `iiif_testserver.py` on `port` serving every image in `images` as Image API 3.0, level 1,
    /// at `http://127.0.0.1:PORT/3.0_pil/{file stem}`.
    public static func testServer(images: URL, port: Int) throws -> IIIFTestServer {
        let folder = try TemporaryFolder.make("iiif-testserver")
        return try IIIFTestServer(try LocalHTTPServer.venv("python3"),
                                  [try LocalHTTPServer.venv("iiif_testserver.py"), "-d", images.path, "--host", "127.0.0.1",
                                   "--port", "\(port)", "--api-versions", "3.0", "-q"],
                                  port: port, folder: folder, probe: "/")
    }
}
