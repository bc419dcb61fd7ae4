/// A throwaway cluster of its own, for a test that stops and starts the server (`pg_ctl stop -m immediate`) without
/// disturbing the shared one other tests use at the same time. Removed when the last reference goes.
public final class PrivateTestCluster: Sendable {
    private let cluster: ThrowawayCluster
    /// The superuser's address of the cluster's `postgres` database.
    public let url: String

    /// Creates and starts the cluster (initdb, then pg_ctl start); throws `TestServerFailure` where PostgreSQL is
    /// not installed.
    public init() throws {
        cluster = try ThrowawayCluster()
        url = "postgresql://postgres@127.0.0.1:\(cluster.port)/postgres"
    }

    deinit { cluster.stopAtExit() }

    /// Stops the server; `immediate` ends every session at once, as a crash or a failover would.
    public func stop(mode: String = "immediate") throws { try cluster.stop(mode: mode) }

    /// Starts the server again on the same port, waiting until it accepts connections.
    public func start() throws { try cluster.start() }
}
