import Foundation
import Glibc
import PostgresStore

/// A PostgreSQL server for tests: the one `TWEETSH_TEST_PG_URL` names, or else a throwaway cluster this process
/// starts once (initdb into a fresh temporary folder, `pg_ctl start` on 127.0.0.1 and a free port) and stops at exit.
///
/// Each test asks for its own database (`makeDatabase()`), so tests run in parallel without seeing each other's
/// rows. Where PostgreSQL is not installed, `unavailableReason` says so and the tests skip, printing
/// `skipMarker` so CI can refuse a run in which they did not run.
public enum PostgresTestServer {
    /// The line printed when PostgreSQL tests skip; `.ci/run` fails when the test output holds it.
    public static let skipMarker = "TWEETSH-POSTGRES-TESTS-SKIPPED"
    /// The environment variable naming an existing server (a superuser's URL, no database: `postgresql://u@h:p`).
    public static let environmentVariable = "TWEETSH_TEST_PG_URL"

    /// Why the PostgreSQL tests cannot run here, or nil when a server is up.
    public static var unavailableReason: String? {
        switch server {
        case .success: return nil
        case .failure(let failure):
            print("\(skipMarker): \(failure.reason)")
            return failure.reason
        }
    }

    /// Whether a server is up (for `.enabled(if:)`).
    public static var isAvailable: Bool { unavailableReason == nil }

    /// The superuser's URL of the server, without a database (`postgresql://postgres@127.0.0.1:54321`).
    public static var serverURL: String {
        get throws {
            switch server {
            case .success(let url): return url
            case .failure(let failure): throw failure
            }
        }
    }

    /// The host and port the server listens on, as `127.0.0.1:54321`.
    public static var hostAndPort: String {
        get throws {
            let url = try serverURL
            let authority = url.components(separatedBy: "://").last ?? url
            return authority.components(separatedBy: "@").last ?? authority
        }
    }

    /// A new empty database; returns its URL for the superuser.
    public static func makeDatabase() throws -> String {
        let url = try serverURL
        let name = "tweetsh_test_\(getpid())_\(counter.next())"
        let admin = try PGConnection(conninfo: url + "/postgres")
        try admin.execute("CREATE DATABASE \(name)")
        return url + "/" + name
    }

    /// The URL of `database` as `user` with `password` (nil: none in the URL).
    public static func url(database: String, user: String, password: String? = nil) throws -> String {
        let secret = password.map { ":" + $0 } ?? ""
        return "postgresql://\(user)\(secret)@\(try hostAndPort)/\(database)"
    }

    /// The database name at the end of a URL from `makeDatabase()`.
    public static func databaseName(_ url: String) -> String {
        url.components(separatedBy: "/").last ?? url
    }

    /// Stops the throwaway cluster (fast shutdown) and starts it again on the same port, for tests of a server that
    /// goes away; does nothing for a server named by the environment.
    public static func restart(stopped: () async throws -> Void) async throws {
        guard let cluster = ThrowawayCluster.current else { throw TestServerFailure(reason: "no throwaway cluster") }
        try cluster.stop(mode: "fast")
        do {
            try await stopped()
        } catch {
            try cluster.start()
            throw error
        }
        try cluster.start()
    }

    /// Whether `restart` can stop the server (it can only for the cluster this process started).
    public static var canRestart: Bool { ThrowawayCluster.current != nil }

    private static let server: Result<String, TestServerFailure> = {
        if let url = ProcessInfo.processInfo.environment[environmentVariable], !url.isEmpty {
            return .success(url.hasSuffix("/") ? String(url.dropLast()) : url)
        }
        do {
            let cluster = try ThrowawayCluster()
            ThrowawayCluster.current = cluster
            return .success("postgresql://postgres@127.0.0.1:\(cluster.port)")
        } catch let failure as TestServerFailure {
            return .failure(failure)
        } catch {
            return .failure(TestServerFailure(reason: "\(error)"))
        }
    }()

    private static let counter = Counter()
}

/// Why no server could be had.
public struct TestServerFailure: Error, CustomStringConvertible {
    /// A sentence saying what is missing.
    public var reason: String
    /// The reason.
    public var description: String { reason }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}
