import Foundation
import PostgresTesting
import Synchronization
import Testing
import TweetKit

@testable import PostgresStore

@Suite("Roles, secrets and failures", .enabled(if: PostgresFixtures.available, "PostgreSQL is not available"))
struct PostgresAccessTests {
    /// A database initialized with uniquely named roles (roles are cluster-wide), and those names.
    static func initialized(importerPassword: String, readerPassword: String) throws -> (String, PostgresRoles) {
        let url = try PostgresTestServer.makeDatabase()
        let suffix = PostgresTestServer.databaseName(url)
        let roles = PostgresRoles(importer: "imp_" + suffix, reader: "rd_" + suffix)
        try PostgresStore.initialize(
            address: url, roles: roles, importerPassword: importerPassword, readerPassword: readerPassword)
        return (url, roles)
    }

    @Test func aReaderSearchesButCannotImport() async throws {
        let (url, roles) = try Self.initialized(importerPassword: "imp-Secret-1", readerPassword: "rd-Secret-2")
        let database = PostgresTestServer.databaseName(url)
        let importer = try PostgresStore(
            address: try PostgresTestServer.url(database: database, user: roles.importer, password: "imp-Secret-1"),
            migrate: false)
        try await importer.insert(Array(DemoCorpus(seed: 9, tweetCount: 200, pageSize: 100)))
        let reader = try PostgresStore(
            address: try PostgresTestServer.url(database: database, user: roles.reader, password: "rd-Secret-2"),
            migrate: false)
        let page = try await reader.search(SearchRequest(query: "-zzzz", pageSize: 10), cursor: nil)
        #expect(page.tweets.count == 10)
        let (file, _) = try PostgresStoreTests.corpusFile(tweets: 100, seed: 77)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        do {
            _ = try await reader.importJSONL(at: file)
            Issue.record("a reader imported")
        } catch let error as PostgresError {
            #expect(error.kind == .readOnly)
            #expect(error.description.hasPrefix("this store is read-only for you"))
        }
        do {
            try await reader.insert(Array(DemoCorpus(seed: 10, tweetCount: 10, pageSize: 10)))
            Issue.record("a reader wrote pages")
        } catch let error as PostgresError {
            #expect(error.kind == .readOnly)
        }
        #expect(try importer.counts().tweets == 200)
        let imports = try PGConnection(conninfo: url).scalar("SELECT count(*) FROM imports")
        #expect(imports == 0)
    }

    @Test func passwordsNeverShow() async throws {
        let secret = "Hunter2-\(UUID().uuidString.prefix(8))"
        let (url, roles) = try Self.initialized(importerPassword: secret, readerPassword: "other-\(secret)")
        let database = PostgresTestServer.databaseName(url)
        let address = try PostgresTestServer.url(database: database, user: roles.importer, password: secret)
        let store = try PostgresStore(address: address, migrate: false)
        #expect(!store.address.contains(secret))
        #expect(store.address.contains(roles.importer + ":***@"))
        try await store.insert(Array(DemoCorpus(seed: 11, tweetCount: 50, pageSize: 50)))
        // A failure's message names the store, masked.
        do {
            _ = try PostgresStore(
                address: try PostgresTestServer.url(database: database, user: roles.importer, password: secret + "x"))
            Issue.record("a wrong password was accepted")
        } catch let error as PostgresError {
            #expect(error.kind == .authenticationFailed)
            #expect(!error.description.contains(secret))
            #expect(!String(describing: error).contains(secret))
        }
        // Nothing in the store's tables, nor the role catalog, holds the password in clear.
        let admin = try PGConnection(conninfo: url)
        let dump = try admin.rows(
            "SELECT coalesce(string_agg(t::text, ' '), '') FROM (SELECT * FROM imports) t "
                + "UNION ALL SELECT coalesce(string_agg(t::text, ' '), '') FROM (SELECT * FROM tweets) t "
                + "UNION ALL SELECT coalesce(string_agg(t::text, ' '), '') FROM (SELECT * FROM collections) t "
                + "UNION ALL SELECT coalesce(string_agg(rolpassword, ' '), '') FROM pg_authid"
        ) { $0.text(0) }.joined()
        #expect(!dump.contains(secret))
    }

    @Test func addressesAreMaskedInBothForms() {
        #expect(
            ConnectionAddress.masked("postgresql://ann:pa%40ss@db.example/lab") == "postgresql://ann:***@db.example/lab"
        )
        #expect(
            ConnectionAddress.masked("postgres://ann@db/lab?password=x&sslmode=require")
                == "postgres://ann@db/lab?password=***&sslmode=require")
        #expect(ConnectionAddress.masked("host=db password='a b\\'c' dbname=lab") == "host=db password=*** dbname=lab")
        #expect(ConnectionAddress.masked("host=db password = s3cret dbname=lab") == "host=db password =*** dbname=lab")
        #expect(ConnectionAddress.masked("postgresql://ann@db/lab") == "postgresql://ann@db/lab")
    }

    /// The kind of `PostgresError` opening `address` throws, nil when it opens.
    static func failure(opening address: String, migrate: Bool = true) -> PostgresError? {
        do {
            _ = try PostgresStore(address: address, migrate: migrate)
            return nil
        } catch {
            return error as? PostgresError
        }
    }

    @Test func connectionFailuresAreExplained() throws {
        let server = try PostgresTestServer.hostAndPort
        let missing = Self.failure(opening: "postgresql://postgres@\(server)/no_such_db")
        #expect(missing?.kind == .databaseMissing)
        #expect(missing?.description.contains("postgresql://postgres@\(server)/no_such_db") == true)
        let refused = Self.failure(opening: "postgresql://nobody:wrong-pw@\(server)/postgres")
        #expect(refused?.kind == .authenticationFailed)
        #expect(refused?.description.contains("nobody:***@") == true)
        #expect(refused?.description.contains("wrong-pw") == false)
        // Port 1 on loopback: nothing listens there.
        #expect(Self.failure(opening: "postgresql://postgres@127.0.0.1:1/x")?.kind == .hostUnreachable)
        let empty = try PostgresTestServer.makeDatabase()
        #expect(Self.failure(opening: empty, migrate: false)?.kind == .notInitialized)
        let unknown = Self.failure(opening: "host=no-such-host.invalid dbname=x")
        #expect(unknown?.kind == .unknownHost)
        #expect(unknown?.description.contains("does not resolve") == true)
    }

    /// An address libpq cannot read is said to be the address's fault, naming the option, not "no server answers";
    /// no value from it is quoted, since a value may be a password.
    @Test func addressesLibpqCannotReadAreExplained() throws {
        let server = try PostgresTestServer.hostAndPort
        let cases: [(String, String)] = [
            ("postgresql://postgres@\(server)/x?sslmode=bogus", "sslmode has a value libpq does not take"),
            ("postgresql://postgres:s3cret@\(server)/x?colour=blue", "libpq has no connection option named colour"),
            ("host=127.0.0.1 port=abc password=s3cret", "the value of port must be a whole number"),
            ("postgresql://postgres@127.0.0.1:abc/x", "the value of port must be a whole number"),
            ("host=127.0.0.1 dbname", "each part must read keyword=value"),
            ("host='127.0.0.1 password=s3cret", "a quoted value is not closed"),
            ("postgresql://postgres@\(server)/x%zz", "the URL is malformed"),
            ("host=127.0.0.1 gssencmode=often", "gssencmode has a value libpq does not take"),
        ]
        for (address, expected) in cases {
            let error = Self.failure(opening: address)
            #expect(error?.kind == .invalidAddress, "\(address): \(String(describing: error))")
            #expect(error?.description.contains(expected) == true, "\(address): \(String(describing: error))")
            #expect(error?.description.contains("s3cret") == false, "\(address)")
            #expect(error?.description.contains("cannot be used as written") == true)
        }
    }

    /// A port that accepts connections but never answers (a listening socket nobody serves) is given up after
    /// `PGConnection.defaultConnectTimeout` as "cannot reach", rather than waited on for good; a `connect_timeout` in
    /// the address wins over that default.
    @Test func aServerThatNeverAnswersIsGivenUp() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(listener >= 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(listener, socketAddress, length) == 0 && listen(listener, 16) == 0
                    && getsockname(listener, socketAddress, &length) == 0
            }
        }
        #expect(bound)
        let port = UInt16(bigEndian: address.sin_port)

        /// Opens the store on another thread, so a connection that never gives up fails the test instead of hanging it
        /// (closing the listener at the end resets it).
        func attempt(_ address: String) -> (error: PostgresError?, seconds: Double)? {
            let done = DispatchSemaphore(value: 0)
            let result = Mutex<(PostgresError?, Double)?>(nil)
            Thread.detachNewThread {
                let start = Date()
                let error = Self.failure(opening: address)
                result.withLock { $0 = (error, Date().timeIntervalSince(start)) }
                done.signal()
            }
            guard done.wait(timeout: .now() + 60) == .success else { return nil }
            return result.withLock { $0 }
        }
        let given = try #require(attempt("postgresql://postgres@127.0.0.1:\(port)/x?connect_timeout=2"))
        #expect(given.error?.kind == .hostUnreachable)
        #expect(given.seconds < Double(PGConnection.defaultConnectTimeout) - 2, "the address's own timeout won")
        let defaulted = try #require(attempt("postgresql://postgres@127.0.0.1:\(port)/x"))
        #expect(defaulted.error?.kind == .hostUnreachable)
        #expect(defaulted.error?.description.contains("cannot reach") == true)
        #expect(defaulted.seconds >= Double(PGConnection.defaultConnectTimeout) - 1)
    }

    /// A connection gets tweetsh's connect timeout and TCP keepalives, unless its address sets its own.
    @Test func connectionDefaultsYieldToTheAddress() throws {
        let url = try PostgresTestServer.makeDatabase()
        let plain = try PGConnection(conninfo: url)
        for (keyword, value) in PGConnection.connectionDefaults {
            #expect(plain.option(keyword) == value, "\(keyword)")
        }
        #expect(plain.option("keepalives_idle") == "30")
        let separator = url.contains("?") ? "&" : "?"
        let own = try PGConnection(conninfo: url + separator + "keepalives_idle=5&connect_timeout=3")
        #expect(own.option("keepalives_idle") == "5")
        #expect(own.option("connect_timeout") == "3")
        #expect(own.option("keepalives_count") == "3")
        #expect(try own.scalar("SELECT 1") == 1)
    }

    /// A store at an older version that this user may not upgrade says so, and how, rather than "no schema yet".
    @Test func anOlderSchemaTheUserCannotUpgradeIsNamedWithItsVersion() throws {
        let (url, roles) = try Self.initialized(importerPassword: "imp-Old-1", readerPassword: "rd-Old-2")
        let admin = try PGConnection(conninfo: url)
        try admin.execute("UPDATE tweetsh_schema SET version = 3")
        let reader = try PostgresTestServer.url(
            database: PostgresTestServer.databaseName(url), user: roles.reader, password: "rd-Old-2")
        for (address, migrate) in [(reader, true), (reader, false), (url, false)] {
            let failure = Self.failure(opening: address, migrate: migrate)
            #expect(failure?.kind == .olderSchema, "\(address) migrate: \(migrate)")
            #expect(failure?.description.contains("version 3") == true)
            #expect(failure?.description.contains("open it once as its owner") == true)
            #expect(failure?.description.contains("rd-Old-2") == false)
        }
        // Its owner upgrades it by opening it.
        try PostgresStore(address: url).close()
        #expect(try PostgresSchema.version(admin) == PostgresSchema.currentVersion)
        #expect(Self.failure(opening: reader, migrate: false) == nil)
    }

    @Test func aLostConnectionFailsOneSearchAndTheNextReconnects() async throws {
        let (store, url) = try PostgresFixtures.store()
        try await store.insert(Array(DemoCorpus(seed: 12, tweetCount: 100, pageSize: 100)))
        let request = SearchRequest(query: "-zzzz", pageSize: 10)
        _ = try await store.search(request, cursor: nil)
        // The server ends this store's session, as a restart or a failover would.
        let pid = try store.serverProcessID()
        try PGConnection(conninfo: url).execute("SELECT pg_terminate_backend($1)", [.integer(Int64(pid))])
        do {
            _ = try await store.search(request, cursor: nil)
            Issue.record("a search on a lost connection succeeded")
        } catch let error as PostgresError {
            #expect(error.kind == .connectionLost)
            #expect(error.description.contains("the next command connects again"))
        }
        let page = try await store.search(request, cursor: nil)
        #expect(page.tweets.count == 10)
        #expect(try store.serverProcessID() != pid)
    }
}
