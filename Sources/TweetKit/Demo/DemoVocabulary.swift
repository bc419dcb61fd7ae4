/// Word lists for the demo corpus, written for it. Each language's words are ordered roughly by how common they
/// should be, because the generator draws ranks from a Zipf-like law: the first words dominate, the last are rare.
enum DemoVocabulary {
    struct Language {
        let code: String
        /// Share of tweets in this language, in percent.
        let weight: Int
        let words: [String]
        let firstNames: [String]
        /// Scripts without spaces between words (Japanese) join words directly.
        let joinsWithoutSpaces: Bool
        let sentenceEnd: [String]
    }

    static let languages: [Language] = [
        Language(
            code: "en", weight: 42,
            words: """
                the data people new time today just good really think know city open night week music team love \
                work year coffee morning weather train game book world school project news free great little river \
                park friends release update festival market library museum garden rain summer winter spring autumn \
                science research paper results analysis climate energy transit bikes election vote policy budget \
                startup launch community volunteers archive history photo video podcast thread question answer \
                bread recipe pizza soup kitchen guitar concert ticket stadium match goal keeper striker referee \
                dataset python swift compiler database query index benchmark latency migration server outage \
                telescope satellite eclipse comet galaxy volcano glacier harbor lighthouse ferry tram
                """.split(separator: " ").map(String.init),
            firstNames: [
                "alex", "sam", "jordan", "taylor", "morgan", "casey", "riley", "jamie", "chris", "pat", "robin", "drew",
            ],
            joinsWithoutSpaces: false, sentenceEnd: [".", "!", "?", "", "..."]),
        Language(
            code: "es", weight: 12,
            words: """
                el la de que y en los hoy mañana gracias ciudad noche semana música equipo partido gol fútbol \
                trabajo año café lluvia verano invierno mercado biblioteca museo jardín amigos noticias libro \
                escuela proyecto datos ciencia elecciones presupuesto barrio tren playa montaña fiesta canción \
                cocina receta tortilla paella sobremesa atardecer
                """.split(separator: " ").map(String.init),
            firstNames: ["lucia", "mateo", "sofia", "diego", "valeria", "pablo", "carmen", "javier"],
            joinsWithoutSpaces: false, sentenceEnd: [".", "!", "", "…"]),
        Language(
            code: "ja", weight: 10,
            words: """
                今日 明日 東京 電車 天気 ラーメン 仕事 会議 写真 桜 音楽 ライブ 新しい 本当に ありがとう 週末 \
                コーヒー 映画 試合 データ 研究 ニュース 公園 駅 夜 朝 雨 夏 冬 友達 猫 犬 旅行 温泉 富士山
                """.split(separator: " ").map(String.init),
            firstNames: ["yuki", "haruto", "sakura", "ren", "aoi", "sota", "hina", "kaito"],
            joinsWithoutSpaces: true, sentenceEnd: ["。", "！", "", "…"]),
        Language(
            code: "pt", weight: 8,
            words: """
                o a de que e em hoje amanhã obrigado cidade noite semana música time jogo gol futebol trabalho \
                ano café chuva verão inverno feira biblioteca museu amigos notícias livro escola projeto dados \
                ciência eleição praia samba saudade pão queijo
                """.split(separator: " ").map(String.init),
            firstNames: ["joao", "ana", "pedro", "mariana", "lucas", "beatriz", "rafael", "larissa"],
            joinsWithoutSpaces: false, sentenceEnd: [".", "!", "", "kkk"]),
        Language(
            code: "fr", weight: 7,
            words: """
                le la de et les des aujourd'hui demain merci ville soir semaine musique équipe match but travail \
                année café pluie été hiver marché bibliothèque musée jardin amis nouvelles livre école projet \
                données science élection grève boulangerie croissant fromage vélo métro
                """.split(separator: " ").map(String.init),
            firstNames: ["camille", "louis", "chloe", "hugo", "lea", "arthur", "manon", "jules"],
            joinsWithoutSpaces: false, sentenceEnd: [".", " !", " ?", ""]),
        Language(
            code: "de", weight: 6,
            words: """
                der die das und ist heute morgen danke Stadt Abend Woche Musik Mannschaft Spiel Tor Arbeit Jahr \
                Kaffee Regen Sommer Winter Markt Bibliothek Museum Garten Freunde Nachrichten Buch Schule Projekt \
                Daten Wissenschaft Wahl Bahn Verspätung Brezel Feierabend Wanderung
                """.split(separator: " ").map(String.init),
            firstNames: ["lukas", "lena", "felix", "mia", "jonas", "emma", "paul", "hannah"],
            joinsWithoutSpaces: false, sentenceEnd: [".", "!", "", "?"]),
        Language(
            code: "ar", weight: 6,
            words: """
                اليوم غدا شكرا مدينة ليلة أسبوع موسيقى فريق مباراة هدف عمل سنة قهوة مطر صيف شتاء سوق مكتبة \
                متحف حديقة أصدقاء أخبار كتاب مدرسة مشروع بيانات علم انتخابات بحر
                """.split(separator: " ").map(String.init),
            firstNames: ["omar", "layla", "youssef", "nour", "karim", "salma", "ahmed", "mariam"],
            joinsWithoutSpaces: false, sentenceEnd: [".", "!", "", "؟"]),
        Language(
            code: "it", weight: 4,
            words: """
                il la di che e oggi domani grazie città sera settimana musica squadra partita gol lavoro anno \
                caffè pioggia estate inverno mercato biblioteca museo amici notizie libro scuola progetto dati \
                pasta gelato piazza
                """.split(separator: " ").map(String.init),
            firstNames: ["giulia", "marco", "chiara", "luca", "francesca", "matteo"],
            joinsWithoutSpaces: false, sentenceEnd: [".", "!", ""]),
        Language(
            code: "ko", weight: 3,
            words: """
                오늘 내일 감사합니다 서울 지하철 날씨 커피 음악 경기 데이터 연구 뉴스 공원 친구 여행 사진
                """.split(separator: " ").map(String.init),
            firstNames: ["minjun", "seoyeon", "jiho", "haeun"],
            joinsWithoutSpaces: false, sentenceEnd: [".", "!", ""]),
        Language(
            code: "und", weight: 2, words: ["🎉", "🔥", "👀", "😂", "❤️", "🙏", "💯", "✨"],
            firstNames: ["x", "zz"], joinsWithoutSpaces: false, sentenceEnd: [""]),
    ]

    /// Words that appear in roughly one tweet in 30,000 each, for benchmarks and tests of rare-term search.
    static let rareWords = """
        quokka axolotl zeitgeist serendipity tessellation palimpsest sonder petrichor limerence halcyon \
        susurrus apricity vellichor hiraeth komorebi mamihlapinatapai defenestration borborygmus
        """.split(separator: " ").map(String.init)

    static let hashtags = """
        opendata climate swiftlang python datascience music football elecciones fútbol tokyo photography \
        breakingnews science space astronomy books coffee travel food art jazz research ai privacy \
        cycling transit marathon worldcup olympics rain festival ramadan carnaval 東京 サッカー café \
        commonwords rarebird linux sqlite opensource bikelane urbanism
        """.split(separator: " ").map(String.init)

    static let domains = [
        "example.com/news", "blog.example.org/post", "data.example.net/set", "video.example.com/watch",
        "research.example.edu/paper", "city.example.gov/notice", "shop.example.com/item", "github.com/example/repo",
    ]

    static let emoji = ["😀", "😂", "🎉", "🔥", "❤️", "👍", "🙏", "✨", "🌧️", "☕", "⚽", "📊", "🚆", "🐈", "🌸", "👀"]

    static let surnames = ["lopez", "smith", "tanaka", "silva", "martin", "muller", "haddad", "rossi", "kim", "nguyen"]
}
