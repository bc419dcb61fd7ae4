// The bodies that Combine's specialized operators on `Just`, `Optional.Publisher` and `Result.Publisher` share: each
// works at once on the one value (if any). They live here once, so that the three sources' specialization files only
// declare Combine's result types and say which body they use.

/// Shared bodies of the operators specialized on publishers of at most one value.
@usableFromInline
internal enum SingleValue {
    /// The value if `predicate` holds for it: `first(where:)`, `last(where:)`, `filter` and `prefix(while:)`.
    @inlinable
    internal static func kept<T>(_ value: T?, where predicate: (T) -> Bool) -> T? {
        guard let value, predicate(value) else { return nil }
        return value
    }

    /// The value unless `predicate` drops it: `drop(while:)`.
    @inlinable
    internal static func kept<T>(_ value: T?, unlessDroppedBy predicate: (T) -> Bool) -> T? {
        guard let value, !predicate(value) else { return nil }
        return value
    }

    /// The value, once `predicate` has compared it with itself, or the error it throws: a single value is its own
    /// minimum and maximum and has no duplicates, but the throwing forms still call their closure, as in Combine.
    @inlinable
    internal static func comparedWithItself<T>(_ value: T, by predicate: (T, T) throws -> Bool) throws -> T {
        _ = try predicate(value, value)
        return value
    }

    /// The outcome of a throwing step as a `Result.Publisher`: its value, or the error it throws, typed `any Error`.
    @inlinable
    internal static func attempt<T>(_ body: () throws -> T) -> Result<T, any Error>.Publisher {
        Result<T, any Error>.Publisher(Result { try body() })
    }
}
