"""The questions of benchmarks/languages.py: 24 per language, four in each of six categories.

Written on 2026-12-06 with the notes (languages_notes.py), before any change to the engine (issue 40).
Each question is a tuple in the order of LANGS, asked as a user of that language would ask it (not word
for word), with its expected sources: (path, a fragment of the English line). The notes are parallel, so
the line the fragment finds in the English file is the expected line in every language. A fragment of
None accepts any entry of that file ("what happened on November 21?").

Now is Thursday 2025-11-27 18:00.
"""

from __future__ import annotations

from languages_more import QUESTIONS as MORE_QUESTIONS

NOW = "2025-11-27T18:00"
CATEGORIES = ("entity", "temporal", "opinion", "paraphrase", "multi-hop", "exact")

D17, D18, D19, D20, D21, D24, D25, D26 = (f"memory/2025-11-{d}.md" for d in (17, 18, 19, 20, 21, 24, 25, 26))
PRIYA, PETER = "bank/entities/Priya.md", "bank/entities/Peter.md"

# (category, (en, de, es, fr, pt, zh, ja), [(path, English fragment or None), ...]); it, nl, ru, ko are
# added from languages_more.py at the end.
QUESTIONS = [
    ("entity", ("Who is Priya?", "Wer ist Priya?", "¿Quién es Priya?", "Qui est Priya ?", "Quem é a Priya?",
                "Priya是谁？", "Priyaって誰？"),
     [(PRIYA, None), (D17, "Works as a backend developer"), (D21, "Signed the contract")]),
    ("entity", ("Who is Tom?", "Wer ist Tom?", "¿Quién es Tom?", "Qui est Tom ?", "Quem é o Tom?", "Tom是谁？",
                "Tomって誰？"),
     [(D17, "Covers for @Lea")]),
    ("entity", ("Tell me about Fernwerk.", "Erzähl mir etwas über Fernwerk.", "Háblame de Fernwerk.",
                "Parle-moi de Fernwerk.", "Me fala da Fernwerk.", "介绍一下Fernwerk。", "Fernwerkについて教えて。"),
     [(D19, "A solar energy startup in Hamburg with about forty")]),
    ("entity", ("Who is Bruno?", "Wer ist Bruno?", "¿Quién es Bruno?", "Qui est Bruno ?", "Quem é o Bruno?",
                "Bruno是谁？", "Brunoって誰？"),
     [(D18, "with his dog Bruno"), (PETER, "dog called Bruno")]),

    ("temporal", ("What happened on November 21?", "Was ist am 21. November passiert?",
                  "¿Qué pasó el 21 de noviembre?", "Que s'est-il passé le 21 novembre ?",
                  "O que aconteceu em 21 de novembro?", "11月21日发生了什么？", "11月21日に何があった？"),
     [(D21, None)]),
    ("temporal", ("What did I do yesterday?", "Was habe ich gestern gemacht?", "¿Qué hice ayer?",
                  "Qu'est-ce que j'ai fait hier ?", "O que eu fiz ontem?", "我昨天做了什么？", "昨日は何をした？"),
     [(D26, None)]),
    ("temporal", ("When is the dentist appointment?", "Wann ist der Zahnarzttermin?",
                  "¿Cuándo es la cita con el dentista?", "C'est quand, le rendez-vous chez le dentiste ?",
                  "Quando é a consulta no dentista?", "牙医预约是什么时候？", "歯医者の予約はいつ？"),
     [(D20, "Dentist appointment")]),
    ("temporal", ("What happened on Monday?", "Was war am Montag?", "¿Qué pasó el lunes?",
                  "Que s'est-il passé lundi ?", "O que aconteceu na segunda-feira?", "周一发生了什么？",
                  "月曜日に何があった？"),
     [(D24, None)]),

    ("opinion", ("What does Peter prefer for short trips?", "Was bevorzugt Peter für kurze Reisen?",
                 "¿Qué prefiere Peter para viajes cortos?", "Que préfère Peter pour les trajets courts ?",
                 "O que o Peter prefere para viagens curtas?", "短途出行Peter更喜欢什么？",
                 "Peterは短い移動で何を好む？"),
     [(D17, "Prefers trains over planes")]),
    ("opinion", ("What does Priya think of open-plan offices?", "Was hält Priya von Großraumbüros?",
                 "¿Qué piensa Priya de las oficinas abiertas?", "Que pense Priya des open spaces ?",
                 "O que a Priya acha de escritórios abertos?", "Priya怎么看开放式办公室？",
                 "Priyaはオープンオフィスをどう思っている？"),
     [(D20, "Dislikes open-plan offices")]),
    ("opinion", ("What does Tom think about code reviews?", "Was denkt Tom über Code-Reviews?",
                 "¿Qué opina Tom de las revisiones de código?", "Que pense Tom des revues de code ?",
                 "O que o Tom pensa sobre revisões de código?", "Tom对代码评审有什么看法？",
                 "Tomはコードレビューについてどう考えている？"),
     [(D21, "Believes code reviews")]),
    ("opinion", ("How does Mara feel about the climbing gym?", "Wie findet Mara die Kletterhalle?",
                 "¿Qué le parece a Mara el rocódromo?", "Qu'est-ce que Mara pense de la salle d'escalade ?",
                 "O que a Mara acha do ginásio de escalada?", "Mara觉得攀岩馆怎么样？",
                 "Maraはクライミングジムをどう思っている？"),
     [(D19, "too crowded on weekends")]),

    ("paraphrase", ("Who is standing in for Lea while she is away?", "Wer springt für Lea ein, solange sie weg ist?",
                    "¿Quién reemplaza a Lea mientras no está?", "Qui assure l'intérim de Lea pendant son absence ?",
                    "Quem fica no lugar da Lea enquanto ela está fora?", "Lea不在的时候谁顶替她？",
                    "Leaがいない間、誰が代わりをしている？"),
     [(D17, "Covers for @Lea"), (D17, "Tom leads it while Lea")]),
    ("paraphrase", ("How long does the build take now?", "Wie lange dauert der Build inzwischen?",
                    "¿Cuánto tarda ahora la compilación?", "Combien de temps prend le build maintenant ?",
                    "Quanto tempo o build leva agora?", "现在构建要多长时间？", "今ビルドにはどのくらい時間がかかる？"),
     [(D26, "now takes twelve minutes")]),
    ("paraphrase", ("What present did I get for Mara?", "Was habe ich Mara geschenkt?", "¿Qué le regalé a Mara?",
                    "Qu'est-ce que j'ai offert à Mara ?", "Que presente eu comprei para a Mara?",
                    "我送了Mara什么礼物？", "Maraに何をプレゼントした？"),
     [(D25, "birthday gift")]),
    ("paraphrase", ("Which employer is Priya leaving?", "Welchen Arbeitgeber verlässt Priya?",
                    "¿Qué empresa deja Priya?", "Quel employeur Priya quitte-t-elle ?",
                    "Qual empregador a Priya está deixando?", "Priya要离开哪家公司？", "Priyaはどの会社を辞める？"),
     [(D25, "farewell lunch at Nordbank"), (PRIYA, "Leaves Nordbank"), (D17, "Works as a backend developer")]),

    ("multi-hop", ("In which city will Peter's dog live next year?",
                   "In welcher Stadt wird Peters Hund nächstes Jahr leben?",
                   "¿En qué ciudad vivirá el perro de Peter el año que viene?",
                   "Dans quelle ville vivra le chien de Peter l'an prochain ?",
                   "Em que cidade o cachorro do Peter vai morar no ano que vem?", "明年Peter的狗会住在哪个城市？",
                   "来年、Peterの犬はどの街に住む？"),
     [(D24, "Moves to Munich"), (D24, "found a flat in Munich"), (PETER, "Vienna to Munich"),
      (D20, "Accepted the job")]),
    ("multi-hop", ("In which city will Priya work from January?", "In welcher Stadt arbeitet Priya ab Januar?",
                   "¿En qué ciudad trabajará Priya a partir de enero?",
                   "Dans quelle ville Priya travaillera-t-elle à partir de janvier ?",
                   "Em que cidade a Priya vai trabalhar a partir de janeiro?", "从一月起Priya在哪个城市工作？",
                   "1月からPriyaはどの街で働く？"),
     [(D19, "A solar energy startup in Hamburg"), (D19, "second interview at Fernwerk")]),
    ("multi-hop", ("Who made the test pipeline faster?", "Wer hat die Test-Pipeline schneller gemacht?",
                   "¿Quién hizo más rápido el pipeline de pruebas?", "Qui a rendu le pipeline de tests plus rapide ?",
                   "Quem deixou o pipeline de testes mais rápido?", "是谁让测试流水线变快的？",
                   "テストのパイプラインを速くしたのは誰？"),
     [(D26, "Tom split the test suite"), (D21, "Tom suggested splitting")]),
    ("multi-hop", ("How quickly does Lea's stand-in want code reviewed?",
                   "Wie schnell will Leas Vertretung Code reviewt haben?",
                   "¿Con qué rapidez quiere el sustituto de Lea que se revise el código?",
                   "En combien de temps le remplaçant de Lea veut-il que le code soit relu ?",
                   "Em quanto tempo o substituto da Lea quer o código revisado?", "Lea的代理人希望代码多快被评审？",
                   "Leaの代わりの人はどのくらいの速さでコードをレビューしてほしい？"),
     [(D21, "Believes code reviews")]),

    ("exact", ("error E4012", "Fehler E4012", "error E4012", "erreur E4012", "erro E4012", "错误E4012", "エラーE4012"),
     [(D18, "error code E4012"), (D24, "error code E4012")]),
    ("exact", ("billing.retry_limit",) * 7, [(D20, "billing.retry_limit")]),
    ("exact", ("Schwabing",) * 7, [(D24, "Schwabing")]),
    ("exact", ("Postgres invoice queue", "Postgres Rechnungswarteschlange", "Postgres cola de facturas",
               "Postgres file d'attente des factures", "Postgres fila de faturas", "Postgres 发票队列",
               "Postgres 請求書キュー"),
     [(D17, "keep Postgres")]),
]


QUESTIONS = [(category, texts + MORE_QUESTIONS[texts[0]], sources) for category, texts, sources in QUESTIONS]
