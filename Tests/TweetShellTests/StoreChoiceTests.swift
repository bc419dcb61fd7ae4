import Foundation
import Testing
import TweetStore

@testable import TweetShell

/// Which store `--store` and `store = …` open: the rule docs/commands.md states.
struct StoreChoiceTests {
    let environment = ["HOME": "/home/ann", "PGHOST": "db.lab", "PGDATABASE": "tweets"]

    @Test func addressesAndTheBareWordOpenPostgreSQL() {
        #expect(
            StoreChoice.resolve(option: "postgresql://ann@db/lab", config: nil, environment: environment)
                == .postgres(address: "postgresql://ann@db/lab"))
        #expect(
            StoreChoice.resolve(option: "postgres://ann@db/lab", config: nil, environment: environment)
                == .postgres(address: "postgres://ann@db/lab"))
        #expect(
            StoreChoice.resolve(option: "postgres", config: nil, environment: environment) == .postgres(address: ""))
        #expect(
            StoreChoice.resolve(option: nil, config: "PostgreSQL", environment: environment) == .postgres(address: ""))
    }

    /// libpq's key/value form opens PostgreSQL too; taken for a path, it made an SQLite file whose name held the
    /// password.
    @Test func libpqKeyValueAddressesOpenPostgreSQL() {
        for address in ["host=db dbname=lab", " user=ann password=s3cret host=db", "service=lab", "DBNAME = lab"] {
            #expect(
                StoreChoice.resolve(option: address, config: nil, environment: environment)
                    == .postgres(address: address), "\(address)")
        }
        for path in ["./user=me.sqlite", "/tmp/a=b.sqlite", "mine.sqlite", "weird=name.sqlite"] {
            #expect(
                StoreChoice.resolve(option: path, config: nil, environment: environment) == .sqlite(.file(path)),
                "\(path)")
        }
    }

    @Test func pathsOpenSQLiteAndTheOptionWinsOverTheConfig() {
        #expect(
            StoreChoice.resolve(option: "/tmp/t.sqlite", config: "postgres", environment: environment)
                == .sqlite(.file("/tmp/t.sqlite")))
        #expect(
            StoreChoice.resolve(option: nil, config: "postgresql://ann@db/lab", environment: environment)
                == .postgres(address: "postgresql://ann@db/lab"))
        // PG* variables alone never switch the store.
        #expect(
            StoreChoice.resolve(option: nil, config: nil, environment: environment)
                == .sqlite(.file("/home/ann/.local/share/tweetsh/tweets.sqlite")))
    }

    @Test func theConfigFileTakesAStoreAndRefusesAnEmptyOne() {
        let (config, problems) = ShellConfig.parse("store = postgresql://ann@db/lab\n", file: "config")
        #expect(config.store == "postgresql://ann@db/lab")
        #expect(problems.isEmpty)
        let (_, empty) = ShellConfig.parse("store =\n", file: "config")
        #expect(empty == ["config:1: store needs a file's path or a postgresql:// address"])
    }
}
