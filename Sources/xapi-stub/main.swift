import Foundation
import TweetKit
import XAPIStub

#if canImport(Glibc)
    import Glibc
#endif

// The loopback X API stub as a program, for end-to-end tests that drive the real tweetsh binary.
// It prints one line, `xapi-stub listening on http://127.0.0.1:<port>`, then serves until SIGINT or SIGTERM.

let usage = """
    usage: xapi-stub [--port N] [--token T] [--consumer-key K] [--consumer-secret S] [--rate-limit N]
                     [--corpus FILE.jsonl] [--fault SPEC[,PATH]]... [--lookup-any] [--missing REASON=ID,ID...]...
                     [--rule-cap N] [--stream-rate N] [--stream-heartbeat SECONDS] [--stream-limit N]
      --corpus serves the tweets of a JSONL collection instead of the built-in fixtures.
      --lookup-any answers GET /2/tweets?ids= for any id with a made-up tweet; --missing leaves ids out with
        REASON deleted, suspended, protected (in the response's errors) or silent (in neither data nor errors).
      --rule-cap sets how many filtered-stream rules the account may hold (25).
      SPEC: 401 403-client 403-auth 400@POS 429@SECONDS 429-v1@SECONDS 429-cap 429-second 500..599 slow@SECONDS
            truncated 404-html 404-empty close not-bearer
      Faults are used in order by the next request whose path starts with PATH (any request without one).
      More can be queued while running: POST /__stub/faults with spec=...&path=...; GET /__stub/requests lists requests.
      The filtered stream posts --stream-rate tweets a second (default 5), sends a heartbeat after --stream-heartbeat
      seconds without one (default 20) and stops posting after --stream-limit tweets. POST /__stub/stream with
      rate=, heartbeat=, limit= or command=stall@SECONDS|drop|operational-disconnect|too-many-connections|429 changes it.
    """

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("xapi-stub: \(message)\n\(usage)\n".utf8))
    exit(2)
}

var configuration = StubServer.Configuration()
var faults: [(StubFault, String?)] = []
var streamSettings = StubStream.Settings()
var lookupAny = false
var missing: [(StubMissingReason, [TweetID])] = []
var ruleCap: Int?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    func value() -> String {
        guard let next = arguments.popFirst() else { fail("\(argument) needs a value") }
        return next
    }
    switch argument {
    case "--port":
        let text = value()
        guard let port = UInt16(text) else { fail("--port \(text): expected a number from 0 to 65535") }
        configuration.port = port
    case "--token": configuration.bearerToken = value()
    case "--consumer-key": configuration.consumerKey = value()
    case "--consumer-secret": configuration.consumerSecret = value()
    case "--rate-limit":
        let text = value()
        guard let limit = Int(text), limit > 0 else { fail("--rate-limit \(text): expected a positive number") }
        configuration.rateLimit = limit
    case "--corpus":
        let path = value()
        guard let data = FileManager.default.contents(atPath: path) else {
            fail("--corpus \(path): cannot read the file")
        }
        do {
            configuration.corpus = try StubCorpus(jsonl: data)
        } catch {
            fail("--corpus \(path) \(error)")
        }
    case "--fault":
        let text = value()
        let parts = text.split(separator: ",", maxSplits: 1).map(String.init)
        guard let fault = StubFault(spec: parts.first ?? "") else { fail("--fault \(text): unknown fault") }
        faults.append((fault, parts.count > 1 ? parts[1] : nil))
    case "--stream-rate":
        let text = value()
        guard let rate = Double(text), rate >= 0 else { fail("--stream-rate \(text): expected a number") }
        streamSettings.tweetsPerSecond = rate
    case "--stream-heartbeat":
        let text = value()
        guard let seconds = Double(text), seconds > 0 else { fail("--stream-heartbeat \(text): expected seconds") }
        streamSettings.heartbeatInterval = seconds
    case "--stream-limit":
        let text = value()
        guard let limit = Int(text), limit >= 0 else { fail("--stream-limit \(text): expected a count") }
        streamSettings.maximumTweets = limit
    case "--lookup-any": lookupAny = true
    case "--missing":
        let text = value()
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, let reason = StubMissingReason(rawValue: parts[0]) else {
            fail("--missing \(text): expected REASON=ID,ID with REASON deleted, suspended, protected or silent")
        }
        let ids = parts[1].split(separator: ",").map { TweetID($0) }
        guard !ids.isEmpty, ids.allSatisfy({ $0 != nil }) else { fail("--missing \(text): ids are digits") }
        missing.append((reason, ids.compactMap { $0 }))
    case "--rule-cap":
        let text = value()
        guard let cap = Int(text), cap >= 0 else { fail("--rule-cap \(text): expected a number") }
        ruleCap = cap
    case "-h", "--help":
        print(usage)
        exit(0)
    default:
        fail("unknown argument \(argument)")
    }
}

let server: StubServer
do {
    server = try StubServer(configuration: configuration)
} catch {
    fail("cannot listen: \(error)")
}
for (fault, path) in faults { server.enqueue(fault, path: path) }
server.stream.configure(streamSettings)
server.lookupWorld.answersAnyID = lookupAny
for (reason, ids) in missing { server.lookupWorld.setMissing(ids, reason: reason) }
if let ruleCap { server.streamRules.cap = ruleCap }
print("xapi-stub listening on \(server.baseURL.absoluteString)")
fflush(nil)

signal(SIGINT, SIG_IGN)
signal(SIGTERM, SIG_IGN)
let signals = [SIGINT, SIGTERM].map { number -> DispatchSourceSignal in
    let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
    source.setEventHandler {
        server.stop()
        exit(0)
    }
    source.resume()
    return source
}
withExtendedLifetime(signals) { dispatchMain() }
