import Foundation
import PostgresStore

/// `tweetsh store init ADDRESS [--importer NAME] [--reader NAME]`: creates a PostgreSQL store's schema and its two
/// roles, one that imports and one that only searches. Run it as the database's owner.
///
/// The roles' passwords come from `TWEETSH_IMPORTER_PASSWORD` and `TWEETSH_READER_PASSWORD` (never from the command
/// line, where `ps` and shell history would show them); a role without one logs in as the server's `pg_hba.conf`
/// allows, and `ALTER ROLE … PASSWORD` sets one later. Nothing secret is printed.
enum StoreAdministration {
    /// The usage line.
    static let usage = "usage: tweetsh store init ADDRESS [--importer NAME] [--reader NAME]"

    /// Runs `store` with `words` after it; returns the exit status (0 ok, 1 failed, 2 usage).
    static func run(_ words: [String], environment: [String: String]) -> Int32 {
        guard words.first == "init" else {
            return TweetshApp.usageError(
                (words.first.map { "store has no subcommand '\($0)'; " } ?? "store needs a subcommand; ") + usage)
        }
        var address: String?
        var roles = PostgresRoles()
        var index = 1
        while index < words.count {
            let word = words[index]
            switch word {
            case "--importer", "--reader":
                guard index + 1 < words.count, !words[index + 1].isEmpty else {
                    return TweetshApp.usageError("\(word) needs a role name; \(usage)")
                }
                if word == "--importer" { roles.importer = words[index + 1] } else { roles.reader = words[index + 1] }
                index += 1
            default:
                guard address == nil, !word.hasPrefix("--") else {
                    return TweetshApp.usageError("store init: unexpected '\(word)'; \(usage)")
                }
                address = word
            }
            index += 1
        }
        guard let given = address else { return TweetshApp.usageError("store init needs an address; \(usage)") }
        guard case .postgres(let resolved) = StoreChoice.resolve(option: given, config: nil, environment: environment)
        else {
            return TweetshApp.usageError(
                "store init sets up a PostgreSQL store (postgresql://user@host/db, or 'postgres' for the PG* "
                    + "variables); an SQLite store needs no set-up")
        }
        guard roles.importer != roles.reader else {
            return TweetshApp.usageError("the importer and the reader need different role names")
        }
        let importerPassword = environment["TWEETSH_IMPORTER_PASSWORD"].flatMap { $0.isEmpty ? nil : $0 }
        let readerPassword = environment["TWEETSH_READER_PASSWORD"].flatMap { $0.isEmpty ? nil : $0 }
        let shown = ConnectionAddress.masked(resolved)
        do {
            let created = try PostgresStore.initialize(
                address: resolved, roles: roles, importerPassword: importerPassword, readerPassword: readerPassword)
            print(
                "\(created ? "created" : "checked") the PostgreSQL store \(shown): role \(roles.importer) imports, "
                    + "role \(roles.reader) only searches")
            for (role, password, variable) in [
                (roles.importer, importerPassword, "TWEETSH_IMPORTER_PASSWORD"),
                (roles.reader, readerPassword, "TWEETSH_READER_PASSWORD"),
            ] where password == nil {
                print("  \(role) has no new password (\(variable) was not set)")
            }
            return 0
        } catch {
            FileHandle.standardError.write(Data("tweetsh: store init: \(ErrorText.describe(error))\n".utf8))
            return 1
        }
    }
}
