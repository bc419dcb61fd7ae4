import Foundation

/// Reads the tweets of an X account archive ("Download an archive of your data").
///
/// Accepts the unzipped archive folder (the stores' `ArchiveImport` unpacks a ZIP into one first), its `data` folder, or
/// one tweets file (`data/tweets.js`, the 2020 export's `data/tweet.js`, or a `tweets-partN.js`). Big archives split
/// tweets over `tweets.js`, `tweets-part1.js`, …; the parts are found from `data/manifest.js` when present, else by
/// name. The owner comes from `data/account.js` (tweets in an archive have no `user` object) and becomes every tweet's
/// author.
public struct ArchiveReader: Sendable {
    /// The tweet files, in reading order.
    public let parts: [URL]
    /// The archive's owner, from `account.js` (with `profile.js` details), or the manifest's `userInfo`.
    public let owner: User?
    /// What the import should tell the user about the archive's shape: a missing `account.js` and what that loses.
    public let warnings: [String]

    /// Opens an archive folder or tweets file. Throws a `DecodingProblem` when no tweets file can be found.
    public init(url: URL) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw DecodingProblem("no such file or folder: \(url.path)")
        }
        if !isDirectory.boolValue && url.pathExtension.lowercased() == "zip" {
            throw DecodingProblem("\(url.path) is the zipped archive: unzip it and open the folder it makes")
        }
        let dataFolder: URL
        var explicitFile: URL?
        if isDirectory.boolValue {
            let nested = url.appendingPathComponent("data")
            var nestedIsDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: nested.path, isDirectory: &nestedIsDirectory),
                nestedIsDirectory.boolValue
            {
                dataFolder = nested
            } else {
                dataFolder = url
            }
        } else {
            dataFolder = url.deletingLastPathComponent()
            explicitFile = url
        }
        let manifest = ArchiveReader.readManifest(in: dataFolder)
        if let explicitFile {
            // A single part named on the command line is read alone; the main file brings its sibling parts.
            let name = explicitFile.lastPathComponent
            if ArchiveReader.partNumber(of: name) == 0 {
                let stem = name.hasPrefix("tweets") ? "tweets" : "tweet"
                parts =
                    [explicitFile] + ArchiveReader.partFiles(in: dataFolder, stem: stem).filter { $0 != explicitFile }
            } else {
                parts = [explicitFile]
            }
        } else if let listed = manifest.flatMap({ ArchiveReader.manifestParts($0, dataFolder: dataFolder) }),
            !listed.isEmpty
        {
            parts = listed
        } else {
            let current = ArchiveReader.partFiles(in: dataFolder, stem: "tweets")
            parts = current.isEmpty ? ArchiveReader.partFiles(in: dataFolder, stem: "tweet") : current
        }
        guard !parts.isEmpty else {
            throw DecodingProblem(
                "\(url.path) is not an X archive: no data/tweets.js, data/tweet.js or tweets-partN.js found")
        }
        owner = ArchiveReader.readOwner(in: dataFolder, manifest: manifest)
        warnings = ArchiveReader.ownerWarnings(dataFolder: dataFolder, owner: owner)
    }

    /// A reader that yields the archive's tweets as pages of at most `batchSize`, one part file at a time, so memory
    /// stays bounded by one part's file (memory-mapped) and one batch.
    public func makePageReader(batchSize: Int = 1000) -> ArchivePageReader {
        ArchivePageReader(parts: parts, owner: owner, batchSize: max(1, batchSize))
    }

    /// Calls `body` with every page of tweets; throws on an unreadable file. Malformed tweets are skipped and
    /// returned, so one bad entry does not lose the rest of the archive.
    @discardableResult
    public func forEachPage(batchSize: Int = 1000, _ body: (Page) throws -> Void) throws -> [DecodingProblem] {
        var reader = makePageReader(batchSize: batchSize)
        while let page = try reader.next() { try body(page) }
        return reader.skipped
    }

    // MARK: - Finding the parts

    /// 0 for `tweets.js`/`tweet.js`, N for `tweets-partN.js`, nil for other names.
    package static func partNumber(of name: String) -> Int? {
        for stem in ["tweets", "tweet"] {
            if name == "\(stem).js" { return 0 }
            let prefix = "\(stem)-part"
            if name.hasPrefix(prefix), name.hasSuffix(".js") {
                return Int(name.dropFirst(prefix.count).dropLast(3))
            }
        }
        return nil
    }

    static func partFiles(in folder: URL, stem: String) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.compactMap { name -> (Int, URL)? in
            guard name == "\(stem).js" || name.hasPrefix("\(stem)-part"), let number = partNumber(of: name) else {
                return nil
            }
            return (number, folder.appendingPathComponent(name))
        }
        .sorted { $0.0 < $1.0 }
        .map(\.1)
    }

    static func readManifest(in dataFolder: URL) -> JSONValue? {
        try? ArchiveScript.assignedValue(of: dataFolder.appendingPathComponent("manifest.js"))
    }

    /// The manifest lists files relative to the archive root (`data/tweets-part1.js`).
    static func manifestParts(_ manifest: JSONValue, dataFolder: URL) -> [URL]? {
        let types = manifest["dataTypes"]
        guard let files = (types?["tweets"] ?? types?["tweet"])?["files"]?.array else { return nil }
        let root = dataFolder.deletingLastPathComponent()
        return files.compactMap { file in
            guard let name = file["fileName"]?.string else { return nil }
            let candidate = root.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            let beside = dataFolder.appendingPathComponent((name as NSString).lastPathComponent)
            return FileManager.default.fileExists(atPath: beside.path) ? beside : nil
        }
    }

    static func readOwner(in dataFolder: URL, manifest: JSONValue?) -> User? {
        var owner: User?
        if let accounts = try? ArchiveScript.assignedValue(of: dataFolder.appendingPathComponent("account.js")),
            let account = accounts.array?.first?["account"],
            let id = account["accountId"]?.snowflake, let username = account["username"]?.string
        {
            owner = User(id: id, username: username, name: account["accountDisplayName"]?.string ?? username)
            owner?.createdAt = account["createdAt"]?.string.flatMap(TwitterDate.parse)
        } else if let info = manifest?["userInfo"], let id = info["accountId"]?.snowflake,
            let username = info["userName"]?.string
        {
            owner = User(id: id, username: username, name: info["displayName"]?.string ?? username)
        }
        if owner != nil,
            let profiles = try? ArchiveScript.assignedValue(of: dataFolder.appendingPathComponent("profile.js")),
            let profile = profiles.array?.first?["profile"]
        {
            owner?.description = V2Objects.nonEmpty(profile["description"]?["bio"]?.string)
            owner?.location = V2Objects.nonEmpty(profile["description"]?["location"]?.string)
            owner?.url = V2Objects.nonEmpty(profile["description"]?["website"]?.string)
            owner?.profileImageURL = V2Objects.secureURL(profile["avatarMediaUrl"]?.string)
        }
        return owner
    }
}

/// Yields an archive's tweets page by page; see `ArchiveReader.makePageReader(batchSize:)`.
public struct ArchivePageReader {
    private let parts: [URL]
    private let owner: User?
    private let batchSize: Int
    private var partIndex = 0
    private var current: ArchiveScript.ArrayCursor?
    /// Entries that could not be read as tweets, each naming its file and position; they are skipped.
    public private(set) var skipped: [DecodingProblem] = []
    /// Handles of the users replied to, by id, from the entries' `in_reply_to_screen_name`: archives carry no user
    /// objects for them, and `to:handle` needs them. Read and cleared by `takeReplyHandles()`.
    public private(set) var replyHandles: [UserID: String] = [:]

    /// Entries read so far, whether they were tweets or not.
    public private(set) var entries = 0

    /// The reply handles gathered since the last call.
    public mutating func takeReplyHandles() -> [UserID: String] {
        defer { replyHandles = [:] }
        return replyHandles
    }

    init(parts: [URL], owner: User?, batchSize: Int) {
        self.parts = parts
        self.owner = owner
        self.batchSize = batchSize
    }

    /// The next page of up to `batchSize` tweets, or nil when every part has been read.
    /// Throws a `DecodingProblem` for a part file that cannot be opened or is not an archive script.
    public mutating func next() throws -> Page? {
        var builder = PageBuilder()
        if let owner { builder.addUser(owner) }
        var count = 0
        while count < batchSize {
            if current == nil {
                guard partIndex < parts.count else { break }
                current = try ArchiveScript.ArrayCursor(file: parts[partIndex])
                partIndex += 1
            }
            let element: JSONValue?
            do {
                element = try current!.nextElement()
            } catch let problem as DecodingProblem {
                // The rest of this file cannot be located reliably after a syntax error; move to the next part.
                skipped.append(problem)
                current = nil
                continue
            }
            guard let element else {
                current = nil
                continue
            }
            entries += 1
            let entry = element["tweet"] ?? element
            let cursor = current!
            do {
                var tweet = try V1SearchDecoder.status(
                    entry, path: "\(cursor.name) entry \(cursor.elementIndex)", owner: owner, into: &builder)
                ArchiveEntry.markRetweet(&tweet)
                ArchiveEntry.collectReplyHandle(entry, into: &replyHandles)
                builder.addMain(tweet)
                count += 1
            } catch let problem as DecodingProblem {
                skipped.append(problem)
            }
        }
        guard count > 0 else { return nil }
        var page = builder.page
        page.resultCount = count
        page.newestID = page.tweets.map(\.id).max()
        page.oldestID = page.tweets.map(\.id).min()
        return page
    }
}

/// The archive's JavaScript wrapper: `window.YTD.tweets.part0 = [ ... ]` or `window.__THAR_CONFIG = { ... }`.
enum ArchiveScript {
    static func load(_ file: URL) throws -> Data {
        do {
            return try Data(contentsOf: file, options: .alwaysMapped)
        } catch {
            throw DecodingProblem("cannot read \(file.path): \(error.localizedDescription)")
        }
    }

    /// Offset of the JSON value after the first `=`.
    static func valueStart(in bytes: UnsafeBufferPointer<UInt8>, name: String) throws -> Int {
        guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else {
            throw DecodingProblem("\(name) is not an archive file: expected 'window.YTD.… = ' before the data")
        }
        return equals + 1
    }

    /// The whole value assigned in a small archive file (manifest.js, account.js, profile.js).
    static func assignedValue(of file: URL) throws -> JSONValue {
        let data = try load(file)
        let name = file.lastPathComponent
        let result = data.withUnsafeBytes { raw -> Result<JSONValue, DecodingProblem> in
            let bytes = raw.bindMemory(to: UInt8.self)
            do {
                let start = try valueStart(in: bytes, name: name)
                let (value, _) = try JSONParser.parsePrefix(bytes, from: start)
                return .success(value)
            } catch let error as JSONParseError {
                return .failure(DecodingProblem(error, context: "\(name) is not valid"))
            } catch {
                return .failure(error as? DecodingProblem ?? DecodingProblem("\(error)"))
            }
        }
        return try result.get()
    }

    /// Walks the array assigned in a tweets file one element at a time, so a 500 MB part is never a single tree.
    struct ArrayCursor {
        let name: String
        private let data: Data
        private var offset: Int
        private var finished = false
        private(set) var elementIndex = -1

        init(file: URL) throws {
            name = file.lastPathComponent
            data = try ArchiveScript.load(file)
            let fileName = name
            offset = try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws -> Int in
                let bytes = raw.bindMemory(to: UInt8.self)
                var index = try ArchiveScript.valueStart(in: bytes, name: fileName)
                while index < bytes.count,
                    bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09
                {
                    index += 1
                }
                guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else {
                    throw DecodingProblem("\(fileName) does not assign an array of tweets")
                }
                return index + 1
            }
        }

        /// The next element, or nil at the closing bracket.
        mutating func nextElement() throws -> JSONValue? {
            guard !finished else { return nil }
            let name = self.name
            let start = offset
            let result = data.withUnsafeBytes {
                (raw: UnsafeRawBufferPointer) -> Result<(JSONValue?, Int), DecodingProblem> in
                let bytes = raw.bindMemory(to: UInt8.self)
                var index = start
                func skipSeparators() {
                    while index < bytes.count,
                        [0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: ",")].contains(bytes[index])
                    { index += 1 }
                }
                skipSeparators()
                guard index < bytes.count else {
                    return .failure(DecodingProblem("\(name) ends before its array is closed"))
                }
                if bytes[index] == UInt8(ascii: "]") { return .success((nil, index + 1)) }
                do throws(JSONParseError) {
                    let (value, end) = try JSONParser.parsePrefix(bytes, from: index)
                    return .success((value, end))
                } catch {
                    return .failure(
                        DecodingProblem("\(name) is not valid at byte \(error.offset + 1): \(error.message)"))
                }
            }
            let (value, end) = try result.get()
            offset = end
            if value == nil { finished = true } else { elementIndex += 1 }
            return value
        }
    }
}
