import Foundation
import TweetKit

extension ShellSession {
    /// `show <n|id:ID|url>`: one tweet in full.
    func show(_ reference: TweetReference) async -> CommandStatus {
        guard let item = await resolve(reference) else { return .failed }
        let settings = display.current()
        switch settings.format {
        case .json, .csv:
            // Data formats print the tweet as data (a twarc2 page line, or a CSV row), for scripts.
            let page = await printable(Self.page(holding: item, in: viewModel.results))
            printer.print([item], list: ResultList(pages: [page]), settings: settings)
        case .compact, .detail:
            output.lines(DetailRenderer(width: settings.width, style: output.style).lines(for: item))
        }
        return .ok
    }

    /// `page` with its originals from the store, so a data format prints what was imported or fetched; the page as
    /// it is when the store cannot say (the tweet is printed from what the shell holds).
    private func printable(_ page: Page) async -> Page {
        (try? await withOriginals(page)) ?? page
    }

    /// The page an item came from (with its includes: the retweeted original, the quoted tweet, the users), or a page
    /// made of what the item holds when it came from a lookup.
    static func page(holding item: ResultItem, in list: ResultList) -> Page {
        if let page = list.pages.last(where: { $0.tweets.contains { $0.id == item.tweet.id } }) { return page }
        var users = [item.author, item.retweetedAuthor, item.quoted?.author].compactMap { $0 }
        var seen = Set<UserID>()
        users = users.filter { seen.insert($0.id).inserted }
        return Page(
            tweets: [item.tweet], users: users,
            includedTweets: [item.retweeted, item.quoted?.tweet].compactMap { $0 }, media: item.media)
    }

    /// `thread <n|id:ID>`: the conversation, oldest first; it becomes the current result list.
    func thread(_ reference: TweetReference) async -> CommandStatus {
        guard let item = await resolve(reference) else { return .failed }
        var conversation = item.tweet.conversationID ?? item.tweet.id
        spinner.start("loading the thread…")
        defer { spinner.stop() }
        do {
            let page: Page
            if sources.current == .x, let api = sources.api {
                page = try await api.conversation(id: conversation, cursor: nil, limit: 100)
            } else {
                // The store also follows reply chains, for archives and v1.1 data that have no conversation ids.
                (conversation, page) = try await store.thread(of: item.tweet.id, limit: 200)
            }
            var ordered = display.format == .json || display.format == .csv ? try await withOriginals(page) : page
            ordered.tweets.sort { $0.id < $1.id }
            if !ordered.tweets.contains(where: { $0.id == conversation }), let root = page.tweet(conversation) {
                ordered.tweets.insert(root, at: 0)
            }
            var list = ResultList(sourceName: sources.current.rawValue)
            let added = list.append(ordered)
            guard !added.isEmpty else {
                output.note("no other tweets of this conversation are known; try 'source x' to ask the API")
                return .ok
            }
            viewModel.adopt(list)
            output.note("thread \(conversation): \(added.count) tweet\(added.count == 1 ? "" : "s"), oldest first")
            printer.printResults(added, list: list, note: nil, warnings: [], settings: display.current())
            return .ok
        } catch is CancellationError {
            output.note("cancelled")
            return .failed
        } catch {
            output.error(ErrorText.describe(error))
            return .failed
        }
    }

    /// `open <n>`: prints the URL and hands it to xdg-open when that exists and we are on a terminal.
    func open(_ number: Int) -> CommandStatus {
        guard let item = viewModel.results.item(number) else {
            output.error(noSuchResult(number))
            return .failed
        }
        output.line(item.url)
        if isInteractive, let opener = Self.executable(named: "xdg-open", environment: environment) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: opener)
            process.arguments = [item.url]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try? process.run()
        }
        return .ok
    }

    /// The item a reference names: from the current results, else looked up locally, else from the API.
    func resolve(_ reference: TweetReference) async -> ResultItem? {
        let list = viewModel.results
        switch reference {
        case .index(let number):
            guard let item = list.item(number) else {
                output.error(noSuchResult(number))
                return nil
            }
            return item
        case .id(let id):
            if let item = list.items.first(where: { $0.tweet.id == id }) { return item }
            do {
                var page = try await store.lookup(ids: [id])
                if page.tweets.isEmpty, let api = sources.api {
                    page = try await api.lookup(ids: [id])
                }
                guard let item = ResultBuilder.items(from: page, startingAt: 0).first else {
                    output.error(
                        "tweet \(id) is not in the local store\(sources.api == nil ? "; with 'auth' it can be fetched from the API" : " nor available from the API")"
                    )
                    return nil
                }
                return item
            } catch {
                output.error(ErrorText.describe(error))
                return nil
            }
        }
    }

    func noSuchResult(_ number: Int) -> String {
        let count = viewModel.results.items.count
        if count == 0 {
            if let search = viewModel.results.search {
                return "no result \(number): the last search ('\(search.query)') found nothing"
            }
            return "no results yet: search first, e.g. search swift"
        }
        return
            "no result \(number): the list has \(count)\(viewModel.results.nextCursor != nil ? " (more loads the next page)" : "")"
    }

    static func executable(named name: String, environment: [String: String]) -> String? {
        for directory in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }
}
