import Foundation

/// A store address as the user gave it, and as it may be shown: with any password replaced by `***`.
public enum ConnectionAddress {
    /// Whether `text` names a PostgreSQL store rather than an SQLite file (`postgresql://…`, `postgres://…`).
    public static func isPostgres(_ text: String) -> Bool {
        isURL(text) || isKeyValue(text)
    }

    /// libpq's URL form, `postgresql://…` or `postgres://…`.
    private static func isURL(_ text: String) -> Bool {
        text.hasPrefix("postgresql://") || text.hasPrefix("postgres://")
    }

    /// Whether `text` is libpq's other connection form, `host=… dbname=…`: its first word is `keyword=` with one of
    /// libpq's connection keywords. Without this, such text was taken for an SQLite file's name, and a store file
    /// was made whose name held the password.
    public static func isKeyValue(_ text: String) -> Bool {
        let trimmed = text.drop(while: { $0 == " " })
        guard let equals = trimmed.firstIndex(of: "=") else { return false }
        let keyword = trimmed[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
        return keywords.contains(keyword)
    }

    /// libpq's connection parameter keywords (PostgreSQL 15's list).
    private static let keywords: Set<String> = [
        "host", "hostaddr", "port", "dbname", "user", "password", "passfile", "channel_binding", "connect_timeout",
        "client_encoding", "options", "application_name", "fallback_application_name", "keepalives",
        "keepalives_idle", "keepalives_interval", "keepalives_count", "tcp_user_timeout", "replication", "gssencmode",
        "sslmode", "requiressl", "sslcompression", "sslcert", "sslkey", "sslpassword", "sslrootcert", "sslcrl",
        "sslcrldir", "sslsni", "requirepeer", "ssl_min_protocol_version", "ssl_max_protocol_version", "krbsrvname",
        "gsslib", "service", "target_session_attrs",
    ]

    /// The address with its password masked, in both libpq forms: the URL's `user:secret@` and `password=` query
    /// parameter, and the key/value form's `password=secret` (quoted or not). Everything else is kept, so the
    /// message still says which server and database.
    public static func masked(_ address: String) -> String {
        if address.isEmpty { return "(from PG* variables)" }
        if isURL(address) { return maskedURL(address) }
        return maskedKeyValues(address)
    }

    private static func maskedURL(_ address: String) -> String {
        guard let schemeEnd = address.range(of: "://") else { return address }
        var text = address
        let authorityStart = schemeEnd.upperBound
        let authorityEnd = text[authorityStart...].firstIndex(where: { $0 == "/" || $0 == "?" }) ?? text.endIndex
        // The last `@` of the authority ends the user info; a password may hold `@` itself only percent-encoded.
        if let at = text[authorityStart..<authorityEnd].lastIndex(of: "@"),
            let colon = text[authorityStart..<at].firstIndex(of: ":")
        {
            text.replaceSubrange(text.index(after: colon)..<at, with: "***")
        }
        guard let query = text.firstIndex(of: "?") else { return text }
        let parameters = text[text.index(after: query)...].split(separator: "&", omittingEmptySubsequences: false)
        let masked = parameters.map { parameter -> String in
            parameter.lowercased().hasPrefix("password=") ? "password=***" : String(parameter)
        }
        return String(text[...query]) + masked.joined(separator: "&")
    }

    private static func maskedKeyValues(_ address: String) -> String {
        var output = ""
        var rest = Substring(address)
        while let range = rest.range(of: "password", options: .caseInsensitive) {
            output += rest[..<range.upperBound]
            rest = rest[range.upperBound...]
            let spaces = rest.prefix(while: { $0 == " " })
            guard rest.dropFirst(spaces.count).first == "=" else { continue }
            output += spaces + "="
            rest = rest.dropFirst(spaces.count + 1).drop(while: { $0 == " " })
            if rest.first == "'" {
                // A quoted value ends at the next quote not escaped by a backslash.
                var index = rest.index(after: rest.startIndex)
                while index < rest.endIndex, rest[index] != "'" {
                    index =
                        rest[index] == "\\"
                        ? rest.index(index, offsetBy: 2, limitedBy: rest.endIndex) ?? rest.endIndex
                        : rest.index(after: index)
                }
                rest = index < rest.endIndex ? rest[rest.index(after: index)...] : ""
            } else {
                rest = rest.drop(while: { $0 != " " })
            }
            output += "***"
        }
        return output + rest
    }
}
