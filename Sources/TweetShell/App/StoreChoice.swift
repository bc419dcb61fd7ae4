import Foundation
import PostgresStore
import TweetStore

/// Which store the shell opens, from `--store` (first) or `store = …` in the config file (second):
///
/// - `postgresql://…` or `postgres://…`: the PostgreSQL store at that address;
/// - `postgres` or `postgresql` alone: the PostgreSQL store libpq's own variables name (`PGHOST`, `PGPORT`,
///   `PGDATABASE`, `PGUSER`, `PGPASSWORD`, `PGSERVICE`, …), with `~/.pgpass` for the password;
/// - anything else: an SQLite file (or `file:` URI); neither given: the default SQLite file.
///
/// The `PG*` variables alone never switch the store, so a machine set up for other PostgreSQL tools keeps its local
/// store until asked.
public enum StoreChoice: Equatable, Sendable {
    /// An SQLite file.
    case sqlite(StoreLocation)
    /// A PostgreSQL server; "" means the `PG*` variables.
    case postgres(address: String)

    /// The choice `option` (from `--store`) or `config` (from `store = …`) makes.
    public static func resolve(option: String?, config: String?, environment: [String: String]) -> StoreChoice {
        guard let text = option ?? config, !text.isEmpty else {
            return .sqlite(.defaultLocation(environment: environment))
        }
        if ConnectionAddress.isPostgres(text) { return .postgres(address: text) }
        if ["postgres", "postgresql"].contains(text.lowercased()) { return .postgres(address: "") }
        return .sqlite(.file(text))
    }

    /// Opens the chosen store. A PostgreSQL store keeps this user's search history in XDG state; a store whose
    /// schema is missing is created when the role may, and otherwise refused with a message naming `store init`.
    func open(output: ShellOutput, environment: [String: String]) throws -> any CollectionStore {
        switch self {
        case .sqlite(let location):
            try Self.requireFolder(of: location, environment: environment)
            return try TweetStore(location: location) { tweets in
                output.note(
                    "upgrading the store's search index for \(tweets) tweets; this happens once and takes about "
                        + "\(max(1, tweets / 90_000)) s")
            }
        case .postgres(let address):
            return try PostgresStore(
                address: address,
                history: PostgresStore.historyLocation(for: address, environment: environment))
        }
    }

    /// Refuses a store file named by `--store` or `store =` whose folder does not exist. The default location's
    /// folders are made as XDG says, but a chosen path with a missing folder is a typo or a disk not mounted
    /// (`/mnt/usb/tweets.sqlite`): making the folders there gave a new, empty store, demo corpus and all, on the wrong
    /// disk, and the user's own collection seemed to be gone.
    static func requireFolder(of location: StoreLocation, environment: [String: String]) throws {
        guard case .file(let path) = location, !path.hasPrefix("file:"),
            location != .defaultLocation(environment: environment)
        else { return }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard !FileManager.default.fileExists(atPath: folder) else { return }
        throw StoreError(
            .cannotOpen, path: path,
            detail: "its folder \(folder) does not exist; create it first (mkdir -p \(folder)) or check the path")
    }

    /// Says once at start that the store cannot be written by this user, and what still works.
    static func warnIfReadOnly(_ store: any CollectionStore, output: ShellOutput) {
        guard let reason = store.readOnlyReason else { return }
        if store.keepsHistoryWhenReadOnly {
            output.warning(
                "the \(store.kindName) \(store.displayLocation) is read-only for you (\(reason)): searching, paging, "
                    + "show and export work; import, stream and drop do not")
        } else {
            output.warning(
                "the store \(store.displayLocation) is read-only (\(reason)): searching, paging, show and export "
                    + "work, but search history and the API cache are not saved")
        }
    }
}
