import TweetKit

/// What the shell knows about one command: used for `help`, completion, and "did you mean" suggestions.
public struct CommandSpec: Sendable {
    /// The command's name as typed.
    public let name: String
    /// Other names that run it (`exit` for `quit`).
    public let aliases: [String]
    /// The usage line.
    public let synopsis: String
    /// One line saying what it does.
    public let summary: String
    /// Flags it accepts, for completion.
    public let flags: [String]
    /// Example invocations shown by `help <command>`.
    public let examples: [String]

    /// Every command, in the order `help` lists them.
    public static let all: [CommandSpec] = [
        CommandSpec(
            name: "search", aliases: ["s"],
            synopsis:
                "search [--source x|local] [--archive] [--limit N] [--sort recency|relevancy] [--new] [--refresh] "
                + "[--in NAME] [--allow-secret] <query>",
            summary: "Search tweets with X's query operators; results are numbered for show, thread and open.",
            flags: ["--source", "--in", "--archive", "--limit", "--sort", "--new", "--refresh", "--allow-secret"],
            examples: [
                "search swift concurrency", "search \"async await\" lang:en -is:retweet",
                "search from:swiftlang #swift --limit 50", "search --source x --new swift", "search --in demo coffee",
                "search --in demo",
            ]),
        CommandSpec(
            name: "live", aliases: [], synopsis: "live [query]",
            summary:
                "Search as you type on a screen of its own; Esc keeps the results for more and show, Ctrl-D discards them.",
            flags: [], examples: ["live", "live swift", "live from:swiftlang"]),
        CommandSpec(
            name: "stream", aliases: [], synopsis: "stream [--for DURATION] [--limit N] [--into NAME] [--json]",
            summary:
                "Follow the filtered stream (rules from 'rules add'): every tweet stored as it arrives, reconnecting "
                + "with X's backoff and recovering what a disconnection missed.",
            flags: ["--for", "--limit", "--into", "--json"],
            examples: [
                "stream", "stream --limit 100", "stream --for 10m --into protest-2026", "stream --json > out.jsonl",
            ]),
        CommandSpec(
            name: "more", aliases: ["m"], synopsis: "more [N]",
            summary:
                "Load the next page (or N more results) of the current search; numbering continues. In a new shell it "
                + "continues the last search of 'history searches'.",
            flags: [], examples: ["more", "more 50"]),
        CommandSpec(
            name: "count", aliases: [],
            synopsis:
                "count <query> [--by minute|hour|day|week|month|year] [--since DATE] [--until DATE] [--source x|local] "
                + "[--archive] [--in NAME] [--json]",
            summary:
                "Count matching tweets over time in UTC buckets and draw a bar chart; --json (or format json/csv) "
                + "prints the buckets; export writes the last count.",
            flags: ["--by", "--since", "--until", "--source", "--archive", "--in", "--json"],
            examples: [
                "count coffee", "count #swift --by week", "count rain --by hour --since 2024-03-01 --until 2024-03-08",
                "count \"open data\" --source x --by day", "count vote --json",
            ]),
        CommandSpec(
            name: "top", aliases: [],
            synopsis: "top hashtags|mentions|authors|domains|langs|words [query] [--limit N] [--in NAME]",
            summary:
                "Rank the hashtags, mentions, authors, link domains, languages or words of a query's matches (or of "
                + "the current results, or of a whole collection with --in NAME alone), with counts and bars.",
            flags: ["hashtags", "mentions", "authors", "domains", "langs", "words", "--limit", "--in"],
            examples: [
                "top hashtags coffee", "top authors #swift --limit 20", "top words lang:fr", "top domains",
                "top hashtags --in votes",
            ]),
        CommandSpec(
            name: "drill", aliases: [], synopsis: "drill <N>",
            summary:
                "Search the last top list's query narrowed to row N (#tag, @user, from:, url:, lang: or the word).",
            flags: [], examples: ["drill 1", "drill 3"]),
        CommandSpec(
            name: "stats", aliases: [], synopsis: "stats [collection|all]",
            summary:
                "Overview of a collection: totals, date range with a volume sparkline, kinds, languages, top authors, "
                + "hashtags and domains, and the most liked and retweeted tweets, numbered for show.",
            flags: [], examples: ["stats", "stats demo", "stats all"]),
        CommandSpec(
            name: "show", aliases: [], synopsis: "show <n|id:ID|url>",
            summary: "Show one tweet in full: text, author, time, metrics, links, tags, reply and quote context.",
            flags: [],
            examples: [
                "show 3", "show id:20", "show 1460323737035677698",
                "show https://x.com/user/status/1460323737035677698",
            ]),
        CommandSpec(
            name: "thread", aliases: [], synopsis: "thread <n|id:ID>",
            summary: "Show the conversation a tweet belongs to, oldest first.",
            flags: [], examples: ["thread 2", "thread 1460323737035677698"]),
        CommandSpec(
            name: "user", aliases: [], synopsis: "user @handle|<n>",
            summary: "List a user's tweets, newest first; a number lists the tweets of that result's author.",
            flags: [], examples: ["user @swiftlang", "user 3"]),
        CommandSpec(
            name: "open", aliases: [], synopsis: "open <n>",
            summary: "Print a result's URL, and open it with xdg-open when that exists.", flags: [],
            examples: ["open 4"]),
        CommandSpec(
            name: "auth", aliases: [], synopsis: "auth [status|logout]",
            summary: "Set up X API credentials (a bearer token, or key and secret), show them masked, or remove them.",
            flags: ["status", "logout"], examples: ["auth", "auth status", "auth logout"]),
        CommandSpec(
            name: "history", aliases: ["h"], synopsis: "history [searches]",
            summary: "List earlier commands, or earlier searches with when they ran and whether more pages remain.",
            flags: ["searches"], examples: ["history", "history searches"]),
        CommandSpec(
            name: "again", aliases: [], synopsis: "again <N> [--new] [--refresh]",
            summary: "Re-run search N from `history searches`; answered from the cache unless --new or --refresh.",
            flags: ["--new", "--refresh"], examples: ["again 2", "again 2 --new", "again 2 --refresh"]),
        CommandSpec(
            name: "source", aliases: [], synopsis: "source [x|local]",
            summary: "Show or set where searches go: the X API or the local store.", flags: ["x", "local"],
            examples: ["source", "source local"]),
        CommandSpec(
            name: "import", aliases: [], synopsis: "import <path>... | - [--as NAME]",
            summary:
                "Import twarc2 JSONL, JSON documents, API pages, v1.1 JSON (plain, gzip, bzip2, xz or zstd) or an X "
                + "archive (its folder, or the ZIP X sends).",
            flags: ["--as"],
            examples: [
                "import ~/data/tweets.jsonl", "import ~/data/*.jsonl.gz ~/more --as election",
                "import ~/Downloads/twitter-2024-01-01-abc.zip", "tweetsh -c 'import -' < page.json",
            ]),
        CommandSpec(
            name: "collections", aliases: [], synopsis: "collections",
            summary: "List the store's collections (one per import, 'api', 'demo') with counts and date ranges.",
            flags: [], examples: ["collections"]),
        CommandSpec(
            name: "collection", aliases: [], synopsis: "collection [NAME|all]",
            summary: "Show or set the collection local searches stay inside; 'all' searches every collection.",
            flags: ["all"], examples: ["collection election", "collection all"]),
        CommandSpec(
            name: "drop", aliases: [], synopsis: "drop NAME",
            summary:
                "Delete a collection: its tweets that no other collection holds leave the store, with the users, "
                + "media and included tweets only they name. At the terminal it asks first (not for demo).",
            flags: [], examples: ["drop demo", "drop election"]),
        CommandSpec(
            name: "hydrate", aliases: [], synopsis: "hydrate <file> [--into NAME]",
            summary:
                "Fetch the tweets of a file of ids or status URLs (one a line, or a CSV with an id column) into a "
                + "collection; an interrupted run resumes, and missing ids are counted by reason.",
            flags: ["--into"],
            examples: ["hydrate ids.txt", "hydrate dataset.csv --into election", "hydrate links.txt --into saved"]),
        CommandSpec(
            name: "dehydrate", aliases: [], synopsis: "dehydrate [--in NAME] [query] [> FILE]",
            summary:
                "Print the ids of a local query's matches (or of the current results), one a line, as twarc2 "
                + "dehydrate does; > FILE (or the shell's redirection) writes them to share a dataset.",
            flags: ["--in"],
            examples: [
                "dehydrate", "dehydrate #swift lang:en > swift-ids.txt",
                "tweetsh -c 'dehydrate --in election' > ids.txt",
            ]),
        CommandSpec(
            name: "rules", aliases: [],
            synopsis: "rules [list] | add <rule> [--tag T] | delete <id|tag|all> | check <rule>",
            summary:
                "Manage the filtered stream's rules on X; rules are checked by tweetsh's query parser first, and "
                + "'check' asks X to validate without adding.",
            flags: ["add", "list", "delete", "check", "--tag"],
            examples: [
                "rules add #swift lang:en --tag swift", "rules list", "rules check \"open data\" -is:retweet",
                "rules delete swift", "rules delete all",
            ]),
        CommandSpec(
            name: "export", aliases: [],
            synopsis: "export <file|-> [--format jsonl|flat|csv] [--columns a,b,c] [--all] | export --ids <file>",
            summary:
                "Write the current results as twarc2 JSONL (default), flattened JSONL, or twarc-csv 0.7's CSV columns; --all writes every match of a local search.",
            flags: ["--format", "--columns", "--all", "--ids"],
            examples: [
                "export results.jsonl", "export results.csv --format csv",
                "export people.csv --columns id,created_at,author.username,text", "export everything.jsonl --all",
                "export --ids ids.txt", "export - --format csv --columns id,text",
            ]),
        CommandSpec(
            name: "backup", aliases: [], synopsis: "backup <file>",
            summary: "Write a consistent copy of the local store to a new file, even while other shells use it.",
            flags: [], examples: ["backup ~/tweets-backup.sqlite"]),
        CommandSpec(
            name: "format", aliases: [], synopsis: "format [compact|detail|json|csv [--columns a,b,c]]",
            summary: "Show or set how results are printed; csv prints twarc-csv's columns, or those chosen.",
            flags: ["compact", "detail", "json", "csv", "--columns"],
            examples: ["format detail", "format json", "format csv --columns id,text,public_metrics.like_count"]),
        CommandSpec(
            name: "limits", aliases: [], synopsis: "limits",
            summary: "Show the X API rate limits seen so far, per endpoint.", flags: [], examples: ["limits"]),
        CommandSpec(
            name: "clear", aliases: [], synopsis: "clear", summary: "Clear the screen.", flags: [], examples: ["clear"]),
        CommandSpec(
            name: "help", aliases: ["?"], synopsis: "help [command]",
            summary: "List commands, or explain one with examples.", flags: [], examples: ["help", "help search"]),
        CommandSpec(
            name: "quit", aliases: ["exit"], synopsis: "quit", summary: "Leave tweetsh; words after it are ignored.",
            flags: [], examples: ["quit", "exit"]),
    ]

    /// The spec for a name or alias.
    public static func named(_ name: String) -> CommandSpec? {
        let lowered = name.lowercased()
        return all.first { $0.name == lowered || $0.aliases.contains(lowered) }
    }

    /// The command closest to a mistyped name, when one is close enough to be a likely typo.
    public static func suggestion(for name: String) -> String? {
        let lowered = name.lowercased()
        var best: (name: String, distance: Int)?
        for spec in all {
            for candidate in [spec.name] + spec.aliases where candidate.count > 1 {
                let distance = EditDistance.between(lowered, candidate)
                if best == nil || distance < best!.distance { best = (spec.name, distance) }
            }
            if spec.name.hasPrefix(lowered), lowered.count >= 2 { return spec.name }
        }
        guard let best, best.distance <= max(1, lowered.count / 3 + 1) else { return nil }
        return best.name
    }

}
