/// A parsed JSON document, as the decoders read it.
///
/// Decoders walk this tree by hand instead of using `Codable` because the shapes users hold disagree with each other
/// (archives quote every number, v1.1 sends ids as numbers and strings, twarc2 adds keys) and because importing a
/// collection is dominated by decoding: a tree of small enums is several times faster than `JSONDecoder` here.
public enum JSONValue: Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number without fraction or exponent that fits 64 bits; kept exact because v1.1 ids are JSON numbers.
    case int(Int64)
    /// An integer without fraction or exponent that does not fit 64 bits, as its digits (a leading `-` included):
    /// Python's `json`, which twarc reads with, keeps such a number exact, so an export writes it back digit for
    /// digit instead of as the nearest double (`99999999999999999999` had become `1e+20` in CSV).
    case bigInteger(String)
    /// Any other number.
    case double(Double)
    /// A string, escapes resolved.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object; members keep their order, and lookups scan them (objects here are small).
    case object(JSONObject)

    /// The member `key` of an object; nil for other values or a missing key.
    @inlinable
    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// The string, or nil for anything else.
    @inlinable
    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The elements of an array, or nil for anything else.
    @inlinable
    public var array: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The object, or nil for anything else.
    @inlinable
    public var object: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// An integer from a JSON number or a decimal string (archives quote every number); nil otherwise.
    public var int: Int? {
        switch self {
        case .int(let value): return Int(exactly: value)
        case .double(let value): return Int(exactly: value)
        case .string(let text): return Int(text)
        default: return nil
        }
    }

    /// A boolean from `true`/`false` or their quoted forms (archives quote booleans too).
    public var bool: Bool? {
        switch self {
        case .bool(let value): return value
        case .string("true"): return true
        case .string("false"): return false
        default: return nil
        }
    }

    /// A snowflake id from a decimal string or a non-negative JSON integer.
    public var snowflake: SnowflakeID? {
        switch self {
        case .string(let text): return SnowflakeID(text)
        case .int(let value): return value >= 0 ? SnowflakeID(UInt64(value)) : nil
        default: return nil
        }
    }

    /// True for `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

/// A JSON object: ordered members, looked up by a linear scan, which beats hashing for the dozen keys a tweet has.
public struct JSONObject: Hashable, Sendable {
    /// The members in document order. A repeated key keeps both; lookups find the first.
    public var members: [(key: String, value: JSONValue)]

    /// Creates an object from members.
    public init(_ members: [(key: String, value: JSONValue)] = []) {
        self.members = members
    }

    /// The value of the first member named `key`.
    @inlinable
    public subscript(key: String) -> JSONValue? {
        for member in members where member.key == key { return member.value }
        return nil
    }

    /// The member names in document order.
    public var keys: [String] { members.map(\.key) }

    /// Objects are equal when their members are, in the same order (the tuple array cannot synthesize this).
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    /// Hashes the members in order, consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(members.count)
        for member in members {
            hasher.combine(member.key)
            hasher.combine(member.value)
        }
    }
}
