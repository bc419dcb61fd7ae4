import Foundation
import TweetKit

/// Compares what a store exports with what was imported, object by object, for the lossless round-trip tests of both
/// stores.
public enum LosslessComparison {
    /// Objects of a collection by kind and id, and the `__twarc` block each result tweet came with.
    public struct Collected: Sendable {
        /// Objects by `kind:id` (`tweet:1`, `user:2`, `media:3_4`, `places:…`, `polls:…`).
        public var objects: [String: JSONValue] = [:]
        /// The `__twarc` block of each result tweet's page, by tweet id.
        public var twarc: [String: JSONValue] = [:]
        /// The result tweets' ids in the order read.
        public var resultIDs: [String] = []
    }

    /// The JSON values of a JSON Lines text.
    public static func parse(_ data: Data) throws -> [JSONValue] {
        try data.split(separator: UInt8(ascii: "\n")).map { try JSONParser.parse(Data($0)) }
    }

    /// Collects twarc2 pages.
    public static func collect(pages: [JSONValue]) -> Collected {
        var collected = Collected()
        for page in pages {
            for tweet in page["data"]?.array ?? [] {
                let id = tweet["id"]?.string ?? "?"
                collected.resultIDs.append(id)
                collected.objects["tweet:" + id] = tweet
                collected.twarc[id] = page["__twarc"]
            }
            let includes = page["includes"]
            for (kind, key) in [
                ("users", "id"), ("tweets", "id"), ("media", "media_key"), ("places", "id"), ("polls", "id"),
            ] {
                for item in includes?[kind]?.array ?? [] {
                    let name = kind == "users" ? "user" : kind == "tweets" ? "tweet" : kind
                    collected.objects[name + ":" + (item[key]?.string ?? "?")] = item
                }
            }
        }
        return collected
    }

    /// Differences between two values as paths: keys lost, keys invented and values changed. Member order is not
    /// compared (JSON objects are unordered); array order is.
    public static func differences(_ expected: JSONValue, _ actual: JSONValue, path: String = "") -> [String] {
        switch (expected, actual) {
        case (.object(let a), .object(let b)):
            var result: [String] = []
            let aKeys = Set(a.keys)
            let bKeys = Set(b.keys)
            for lost in aKeys.subtracting(bKeys).sorted() { result.append("lost \(path).\(lost)") }
            for invented in bKeys.subtracting(aKeys).sorted() { result.append("invented \(path).\(invented)") }
            for key in aKeys.intersection(bKeys).sorted() {
                result += differences(a[key]!, b[key]!, path: path + "." + key)
            }
            return result
        case (.array(let a), .array(let b)):
            guard a.count == b.count else { return ["\(path): \(a.count) elements became \(b.count)"] }
            return zip(a, b).enumerated().flatMap { differences($1.0, $1.1, path: "\(path)[\($0)]") }
        case (.int(let a), .double(let b)), (.double(let b), .int(let a)):
            return Double(a) == b ? [] : ["\(path): \(expected) became \(actual)"]
        default:
            return expected == actual ? [] : ["\(path): \(expected) became \(actual)"]
        }
    }
}
