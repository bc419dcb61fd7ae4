import Foundation
import StreamCore
import TweetKit

/// One request to the explore view model.
public enum ExploreRequest: Equatable, Sendable {
    /// `count`.
    case count(CountOptions)
    /// `top`.
    case top(TopOptions)
    /// `stats [collection]`.
    case stats(collection: String?)
}

/// What an explore request answers.
public enum ExploreAnswer: Equatable, Sendable {
    /// A count over time; `json` when `--json` asked for one object per bucket instead of a chart.
    case count(CountSeries, json: Bool)
    /// A ranked list.
    case top(TopList)
    /// An overview, with its most liked and most retweeted tweets as a numbered list for `show N`.
    case stats(CollectionOverview, tweets: ResultList, name: String)
}

/// What an explore request reports while it runs.
public enum ExploreProgress: Equatable, Sendable {
    /// The source is waiting (a rate limit); the shell shows a countdown.
    case waiting(WaitNotice)
    /// An API count has fetched this many pages so far.
    case paging(pages: Int)
    /// The answer.
    case answer(ExploreAnswer)
}

/// What the explore view model asks of the outside world: the shell's implementation reads the store or the API;
/// tests substitute hand-driven publishers. Each publisher does nothing until subscribed and stops its work when
/// cancelled, which is how a newer request or Ctrl-C reaches the SQLite query or the HTTP request.
public protocol ExploreService: Sendable {
    /// Runs one request.
    func run(_ request: ExploreRequest) -> AnyPublisher<ExploreProgress, any Error>
}

/// How one explore command ended.
public enum ExploreOutcome: Equatable, Sendable {
    /// It answered.
    case answered(id: Int, ExploreAnswer)
    /// It failed; the message says what to do.
    case failed(id: Int, message: String)
    /// Ctrl-C, or a newer request, stopped it.
    case cancelled(id: Int)

    /// The command this outcome belongs to.
    public var id: Int {
        switch self {
        case .answered(let id, _), .failed(let id, _), .cancelled(let id): return id
        }
    }
}
