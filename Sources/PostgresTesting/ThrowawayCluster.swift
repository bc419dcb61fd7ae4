import Foundation
import Glibc

/// A PostgreSQL cluster in a temporary folder, owned by the `postgres` user when the tests run as root (initdb
/// refuses root), listening on 127.0.0.1 only, with fsync off: its data is worth nothing after the run.
///
/// The superuser `postgres` connects without a password over TCP; every other role must give its password
/// (SCRAM), so the authentication tests meet a real refusal.
final class ThrowawayCluster: @unchecked Sendable {
    nonisolated(unsafe) static var current: ThrowawayCluster?

    let folder: URL
    let port: Int
    private let binaries: URL
    private let asPostgres: Bool

    init() throws {
        guard let binaries = Self.findBinaries() else {
            throw TestServerFailure(
                reason: "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb); "
                    + "apt-get install postgresql, or set \(PostgresTestServer.environmentVariable)")
        }
        self.binaries = binaries
        asPostgres = getuid() == 0
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tweetsh-pg-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if asPostgres {
            guard let account = getpwnam("postgres") else {
                throw TestServerFailure(reason: "running as root, and there is no postgres user to run initdb as")
            }
            chown(folder.path, account.pointee.pw_uid, account.pointee.pw_gid)
        }
        port = try Self.freePort()
        try run(
            "initdb",
            [
                "-D", folder.appendingPathComponent("data").path, "-U", "postgres", "-A", "trust",
                "-E", "UTF8", "--locale=C", "--no-sync",
            ])
        let hba = """
            local all all trust
            host all postgres 127.0.0.1/32 trust
            host all all 127.0.0.1/32 scram-sha-256
            """
        try hba.write(to: folder.appendingPathComponent("data/pg_hba.conf"), atomically: false, encoding: .utf8)
        try start()
        atexit { ThrowawayCluster.current?.stopAtExit() }
    }

    func start() throws {
        let options = "-p \(port) -c listen_addresses=127.0.0.1 -k \(folder.path) -c fsync=off -c max_connections=200"
        try run(
            "pg_ctl",
            [
                "-D", folder.appendingPathComponent("data").path, "-o", options, "-l",
                folder.appendingPathComponent("log").path, "-w", "-s", "start",
            ])
    }

    func stop(mode: String) throws {
        try run("pg_ctl", ["-D", folder.appendingPathComponent("data").path, "-m", mode, "-w", "-s", "stop"])
    }

    func stopAtExit() {
        try? stop(mode: "immediate")
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs a tool to its end with `posix_spawn` and `waitpid`. Foundation's `Process` waits for descriptors the
    /// server pg_ctl starts inherits and keeps open, so it would wait for the server's exit, not pg_ctl's.
    private func run(_ tool: String, _ arguments: [String]) throws {
        let path = binaries.appendingPathComponent(tool).path
        // As postgres, start in the cluster's folder: the caller's working directory may be closed to that user.
        let argv =
            asPostgres
            ? [
                "/usr/sbin/runuser", "-u", "postgres", "--", "/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", folder.path,
                path,
            ] + arguments
            : [path] + arguments
        let transcript = folder.appendingPathComponent("\(tool).out").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, transcript, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var pointers = argv.map { strdup($0) }
        defer { for pointer in pointers { free(pointer) } }
        pointers.append(nil)
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, pointers, environ)
        guard spawned == 0 else { throw TestServerFailure(reason: "cannot start \(tool): error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let exited = status & 0x7F == 0
        let code = (status >> 8) & 0xFF
        guard exited, code == 0 else {
            let text = (try? String(contentsOfFile: transcript, encoding: .utf8)) ?? ""
            throw TestServerFailure(reason: "\(tool) failed (status \(code)): \(text.suffix(600))")
        }
    }

    private static func findBinaries() -> URL? {
        let root = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        for version in versions.sorted(by: { (Int($0) ?? 0) > (Int($1) ?? 0) }) {
            let bin = root.appendingPathComponent(version).appendingPathComponent("bin")
            if FileManager.default.isExecutableFile(atPath: bin.appendingPathComponent("initdb").path) { return bin }
        }
        return nil
    }

    /// A port nothing listens on now: the kernel's pick for a socket bound to port 0.
    private static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw TestServerFailure(reason: "cannot open a socket to find a free port") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) }
        }
        guard bound == 0 else { throw TestServerFailure(reason: "cannot bind a socket to find a free port") }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
