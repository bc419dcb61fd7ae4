extension PostgresSchema {
    /// Version 5 keeps what the SQLite store keeps beside tweets, users and media, so exports from either store write
    /// back what came in:
    ///
    /// - `object_originals` holds places and polls (`includes.places`, `includes.polls`) as they came, compressed, by
    ///   kind (`ObjectKind`, the SQLite store's numbers) and id. Before, an export rebuilt them from nothing and left
    ///   them out.
    /// - `twarc_blocks` holds each distinct `__twarc` block once (`body`, bytes as they came), by `TwarcBlockKey`, and
    ///   `tweet_originals.twarc` names the block of the page each tweet came in. Before, an export wrote a new block
    ///   with its own time and URL in place of the one twarc recorded.
    ///
    /// Rows stored before version 5 keep what they had: a NULL `twarc` exports with a block made at export, as before.
    /// Adding a nullable column rewrites nothing, so the step takes moments on any size of store. Roles keep their
    /// rights: both tables get the grants `tweets` has.
    static let lossless = """
        CREATE TABLE IF NOT EXISTS object_originals(
            kind smallint NOT NULL,
            key text NOT NULL,
            original bytea NOT NULL,
            PRIMARY KEY(kind, key)
        );
        CREATE TABLE IF NOT EXISTS twarc_blocks(
            id bigint PRIMARY KEY,
            body bytea NOT NULL
        );
        ALTER TABLE tweet_originals ADD COLUMN IF NOT EXISTS twarc bigint;
        \(grantingTweetsPrivileges(on: ["object_originals", "twarc_blocks"]))
        """

    /// Kinds of rows in `object_originals`: the numbers of the SQLite store's `originals` table.
    enum ObjectKind: Int64 {
        case place = 3
        case poll = 4
    }
}

/// The key of a `__twarc` block in `twarc_blocks`: a 64-bit hash of its bytes (FNV-1a, then a final avalanche), so the
/// client names a block while it builds a batch's rows, with no round trip to ask for an id.
///
/// A key is not proof of identity: the writer compares each batch's blocks with the stored ones of the same keys and
/// refuses the batch if any differs, so a collision stops an import with a message and never attaches a wrong block.
enum TwarcBlockKey {
    /// The key of a block's bytes.
    static func key(_ bytes: [UInt8]) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        // Blocks differ in a few characters (their times, a next token); MurmurHash3's final mixing step spreads
        // each input bit over the whole key.
        hash ^= hash >> 33
        hash &*= 0xff51_afd7_ed55_8ccd
        hash ^= hash >> 33
        hash &*= 0xc4ce_b9fe_1a85_ec53
        hash ^= hash >> 33
        return Int64(bitPattern: hash)
    }
}
