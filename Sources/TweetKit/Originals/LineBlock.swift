import Foundation

/// What a twarc2 line carries beside `data`, `includes` and `meta`, kept with each tweet as one block: `__twarc`
/// (twarc's provenance) and, on a line of the filtered stream, `matching_rules` (the rules the tweet matched).
///
/// A block without rules is the `__twarc` object itself, as stores have always kept it (`Originals.twarc`). A block
/// with rules is an envelope holding the line's own members in twarc2's order, `{"matching_rules":[…],"__twarc":{…}}`
/// (or the rules alone, for a line that had no `__twarc`). A `__twarc` object never starts with `matching_rules`, so
/// the two cannot be taken for each other, and stores keep either as the same bytes, in the same table.
public enum LineBlock {
    private static let envelopeStart = Array(#"{"matching_rules":"#.utf8)
    private static let twarcMember = Array(#","__twarc":"#.utf8)

    /// The block of a line's `__twarc` and `matching_rules` values (each compact JSON), or nil when it has neither.
    public static func block(twarc: OriginalJSON?, matchingRules: OriginalJSON?) -> OriginalJSON? {
        guard let matchingRules else { return twarc }
        var bytes = envelopeStart + matchingRules.bytes
        if let twarc { bytes += twarcMember + twarc.bytes }
        bytes.append(UInt8(ascii: "}"))
        return OriginalJSON(bytes: bytes)
    }

    /// A block's `__twarc` and `matching_rules`.
    public static func parts(_ block: OriginalJSON) -> (twarc: OriginalJSON?, matchingRules: OriginalJSON?) {
        guard block.bytes.starts(with: envelopeStart) else { return (block, nil) }
        return block.bytes.withUnsafeBufferPointer { buffer in
            var scanner = JSONParser.Scanner(bytes: buffer)
            var twarc: OriginalJSON?
            var rules: OriginalJSON?
            do {
                try scanner.members { scanner, key in
                    let start = scanner.mark
                    try scanner.skipValue()
                    if key == "__twarc" {
                        twarc = scanner.original(since: start)
                    } else if key == "matching_rules" {
                        rules = scanner.original(since: start)
                    }
                }
            } catch {
                // Stores hold only blocks this type made; a damaged one is written as it is, as a `__twarc`.
                return (block, nil)
            }
            return (twarc, rules)
        }
    }

    /// The block with its `__twarc` replaced, its rules kept: the stream stamps each tweet with when it arrived.
    public static func replacingTwarc(in block: OriginalJSON?, with twarc: OriginalJSON) -> OriginalJSON {
        self.block(twarc: twarc, matchingRules: block.flatMap { parts($0).matchingRules }) ?? twarc
    }
}
