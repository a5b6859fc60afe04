"""The parallel workspace of benchmarks/languages.py: the same notes, line for line, in seven languages.

Written on 2026-12-06 before any change to the engine (issue 40). A user's ten days: daily logs with
`## Notes` (labels such as "Monday:" and "Decision:", names, an error code, a config key) and `## Retain`
facts about a few people (a job change, a move, opinions, a stand-in during parental leave), two bank
entity pages and a core MEMORY.md. Names and @slugs are the same in every language, as a user writes
them; the rest is translated as a native speaker would write a note, not word for word.

Each line is a tuple in the order of LANGS (the first seven here; it, nl, ru and ko from
languages_more.py, keyed by the English line); every file has the same number of lines in every
language, so an expected source is a (path, line number) that holds in each.
"""

from __future__ import annotations

from languages_more import LINES, MORE_HEADINGS, MORE_LANGS

FIRST_LANGS = ("en", "de", "es", "fr", "pt", "zh", "ja")
LANGS = FIRST_LANGS + MORE_LANGS
NOTES_HEADING = ("## Notes", "## Notizen", "## Notas", "## Notes", "## Notas", "## 笔记", "## メモ") + MORE_HEADINGS

MEMORY = [
    ("- I am Kim, a product manager in Berlin.",
     "- Ich bin Kim, Produktmanagerin in Berlin.",
     "- Soy Kim, gerente de producto en Berlín.",
     "- Je suis Kim, cheffe de produit à Berlin.",
     "- Sou a Kim, gerente de produto em Berlim.",
     "- 我是Kim，在柏林做产品经理。",
     "- 私はKim、ベルリンでプロダクトマネージャーをしている。"),
]

# (day, notes, retain facts)
DAYS = [
    ("2025-11-17", [
        ("- Monday: kickoff for the billing migration; Tom leads it while Lea is on parental leave.",
         "- Montag: Kickoff für die Migration der Abrechnung; Tom leitet sie, während Lea in Elternzeit ist.",
         "- Lunes: arranque de la migración de facturación; Tom la dirige mientras Lea está de baja parental.",
         "- Lundi : lancement de la migration de la facturation ; Tom la dirige pendant le congé parental de Lea.",
         "- Segunda-feira: início da migração do faturamento; o Tom lidera enquanto a Lea está de licença parental.",
         "- 周一：计费迁移项目启动；Lea休育儿假期间由Tom负责。",
         "- 月曜日：請求システム移行のキックオフ。Leaが育休中のあいだはTomが担当する。"),
        ("- Decision: we keep Postgres for the invoice queue.",
         "- Entscheidung: Wir behalten Postgres für die Rechnungswarteschlange.",
         "- Decisión: mantenemos Postgres para la cola de facturas.",
         "- Décision : on garde Postgres pour la file d'attente des factures.",
         "- Decisão: mantemos o Postgres para a fila de faturas.",
         "- 决定：发票队列继续使用Postgres。",
         "- 決定：請求書キューにはPostgresを使い続ける。"),
        ("- Lunch with Priya; she is tired of her long commute to the old office.",
         "- Mittagessen mit Priya; sie hat genug von ihrem langen Arbeitsweg ins alte Büro.",
         "- Almuerzo con Priya; está cansada del largo trayecto a la oficina vieja.",
         "- Déjeuner avec Priya ; elle en a assez de son long trajet jusqu'à l'ancien bureau.",
         "- Almoço com a Priya; ela está cansada do longo trajeto até o escritório antigo.",
         "- 和Priya吃午饭；她受够了去旧办公室的漫长通勤。",
         "- Priyaとランチ。古いオフィスまでの長い通勤にうんざりしている。"),
    ], [
        ("- W @Tom: Covers for @Lea as team lead until February.",
         "- W @Tom: Vertritt @Lea als Teamleiter bis Februar.",
         "- W @Tom: Sustituye a @Lea como jefe de equipo hasta febrero.",
         "- W @Tom: Remplace @Lea comme chef d'équipe jusqu'en février.",
         "- W @Tom: Substitui a @Lea como líder da equipe até fevereiro.",
         "- W @Tom: 在@Lea休假期间代理团队负责人，直到二月。",
         "- W @Tom: 2月まで@Leaの代わりにチームリーダーを務める。"),
        ("- W @Priya: Works as a backend developer at @Nordbank.",
         "- W @Priya: Arbeitet als Backend-Entwicklerin bei der @Nordbank.",
         "- W @Priya: Trabaja como desarrolladora backend en @Nordbank.",
         "- W @Priya: Travaille comme développeuse backend chez @Nordbank.",
         "- W @Priya: Trabalha como desenvolvedora backend no @Nordbank.",
         "- W @Priya: 在@Nordbank做后端开发。",
         "- W @Priya: @Nordbankでバックエンド開発者として働いている。"),
        ("- O(c=0.7) @Peter: Prefers trains over planes for trips under six hours.",
         "- O(c=0.7) @Peter: Bevorzugt den Zug statt des Flugzeugs bei Reisen unter sechs Stunden.",
         "- O(c=0.7) @Peter: Prefiere el tren al avión para viajes de menos de seis horas.",
         "- O(c=0.7) @Peter: Préfère le train à l'avion pour les trajets de moins de six heures.",
         "- O(c=0.7) @Peter: Prefere o trem ao avião em viagens de menos de seis horas.",
         "- O(c=0.7) @Peter: 六小时以内的行程更喜欢坐火车而不是飞机。",
         "- O(c=0.7) @Peter: 6時間以内の移動なら飛行機より電車のほうが好き。"),
    ]),
    ("2025-11-18", [
        ("- The staging server ran out of disk space again; error code E4012 in the upload service.",
         "- Dem Staging-Server ist wieder der Speicherplatz ausgegangen; Fehlercode E4012 im Upload-Dienst.",
         "- El servidor de staging se quedó otra vez sin espacio en disco; código de error E4012 en el servicio "
         "de subida.",
         "- Le serveur de staging n'a encore plus d'espace disque ; code d'erreur E4012 dans le service d'upload.",
         "- O servidor de staging ficou sem espaço em disco de novo; código de erro E4012 no serviço de upload.",
         "- 预发布服务器的磁盘空间又满了；上传服务报错误码E4012。",
         "- ステージングサーバーのディスク容量がまた不足した。アップロードサービスでエラーコードE4012。"),
        ("- Peter called: he is looking at flats in Munich because of a new job offer.",
         "- Peter hat angerufen: Er schaut sich wegen eines neuen Jobangebots Wohnungen in München an.",
         "- Llamó Peter: está buscando pisos en Múnich por una nueva oferta de trabajo.",
         "- Peter a appelé : il visite des appartements à Munich à cause d'une nouvelle offre d'emploi.",
         "- O Peter ligou: está procurando apartamentos em Munique por causa de uma nova oferta de emprego.",
         "- Peter打来电话：因为一个新的工作机会，他在看慕尼黑的房子。",
         "- Peterから電話。新しい仕事のオファーがあって、ミュンヘンで部屋を探している。"),
    ], [
        ("- W @Peter: Lives in Vienna with his dog Bruno.",
         "- W @Peter: Wohnt mit seinem Hund Bruno in Wien.",
         "- W @Peter: Vive en Viena con su perro Bruno.",
         "- W @Peter: Habite à Vienne avec son chien Bruno.",
         "- W @Peter: Mora em Viena com o cachorro Bruno.",
         "- W @Peter: 和他的狗Bruno住在维也纳。",
         "- W @Peter: 犬のBrunoと一緒にウィーンに住んでいる。"),
        ("- B @Peter: I promised to send Peter the moving checklist.",
         "- B @Peter: Ich habe versprochen, Peter die Umzugscheckliste zu schicken.",
         "- B @Peter: Prometí enviarle a Peter la lista para la mudanza.",
         "- B @Peter: J'ai promis d'envoyer à Peter la liste pour le déménagement.",
         "- B @Peter: Prometi mandar ao Peter a lista da mudança.",
         "- B @Peter: 我答应把搬家清单发给Peter。",
         "- B @Peter: Peterに引っ越しのチェックリストを送ると約束した。"),
    ]),
    ("2025-11-19", [
        ("- Climbing with Mara in the evening; the only thing that clears her head after work.",
         "- Abends Klettern mit Mara; das Einzige, was ihr nach der Arbeit den Kopf frei macht.",
         "- Escalada con Mara por la tarde; lo único que le despeja la cabeza después del trabajo.",
         "- Escalade avec Mara le soir ; la seule chose qui lui vide la tête après le travail.",
         "- Escalada com a Mara à noite; a única coisa que limpa a cabeça dela depois do trabalho.",
         "- 晚上和Mara去攀岩；这是她下班后唯一能放空脑袋的事。",
         "- 夜にMaraとクライミング。仕事のあとに頭を空っぽにできる唯一のこと。"),
        ("- Priya had a second interview at Fernwerk, a solar energy startup in Hamburg.",
         "- Priya hatte ein zweites Vorstellungsgespräch bei Fernwerk, einem Solar-Startup in Hamburg.",
         "- Priya tuvo una segunda entrevista en Fernwerk, una startup de energía solar en Hamburgo.",
         "- Priya a passé un deuxième entretien chez Fernwerk, une startup d'énergie solaire à Hambourg.",
         "- A Priya fez uma segunda entrevista na Fernwerk, uma startup de energia solar em Hamburgo.",
         "- Priya在Fernwerk参加了第二轮面试，那是汉堡的一家太阳能初创公司。",
         "- PriyaがFernwerkで二次面接を受けた。ハンブルクの太陽光エネルギーのスタートアップ。"),
    ], [
        ("- O(c=0.6) @Mara: Thinks the new climbing gym is too crowded on weekends.",
         "- O(c=0.6) @Mara: Findet die neue Kletterhalle am Wochenende zu voll.",
         "- O(c=0.6) @Mara: Cree que el nuevo rocódromo está demasiado lleno los fines de semana.",
         "- O(c=0.6) @Mara: Trouve que la nouvelle salle d'escalade est trop bondée le week-end.",
         "- O(c=0.6) @Mara: Acha que o novo ginásio de escalada fica lotado demais nos fins de semana.",
         "- O(c=0.6) @Mara: 觉得新的攀岩馆周末人太多。",
         "- O(c=0.6) @Mara: 新しいクライミングジムは週末混みすぎだと思っている。"),
        ("- W @Fernwerk: A solar energy startup in Hamburg with about forty employees.",
         "- W @Fernwerk: Ein Solar-Startup in Hamburg mit etwa vierzig Mitarbeitenden.",
         "- W @Fernwerk: Una startup de energía solar en Hamburgo con unos cuarenta empleados.",
         "- W @Fernwerk: Une startup d'énergie solaire à Hambourg d'environ quarante salariés.",
         "- W @Fernwerk: Uma startup de energia solar em Hamburgo com cerca de quarenta funcionários.",
         "- W @Fernwerk: 汉堡的一家太阳能初创公司，大约四十名员工。",
         "- W @Fernwerk: ハンブルクにある社員約40人の太陽光エネルギーのスタートアップ。"),
    ]),
    ("2025-11-20", [
        ("- Dentist appointment moved to December 3 at 9:30.",
         "- Zahnarzttermin auf den 3. Dezember um 9:30 verschoben.",
         "- La cita con el dentista se movió al 3 de diciembre a las 9:30.",
         "- Rendez-vous chez le dentiste déplacé au 3 décembre à 9h30.",
         "- A consulta no dentista mudou para 3 de dezembro às 9:30.",
         "- 牙医预约改到了12月3日9:30。",
         "- 歯医者の予約を12月3日9:30に変更した。"),
        ("- Checked the config key billing.retry_limit; it is set to 5 in production.",
         "- Den Konfigurationsschlüssel billing.retry_limit geprüft; in Produktion steht er auf 5.",
         "- Revisé la clave de configuración billing.retry_limit; en producción vale 5.",
         "- Vérifié la clé de configuration billing.retry_limit ; elle vaut 5 en production.",
         "- Conferi a chave de configuração billing.retry_limit; em produção está em 5.",
         "- 检查了配置项billing.retry_limit；生产环境里设为5。",
         "- 設定キーbilling.retry_limitを確認した。本番では5になっている。"),
    ], [
        ("- W @Peter: Accepted the job at @Siemens in Munich; starts on January 8.",
         "- W @Peter: Hat den Job bei @Siemens in München angenommen; fängt am 8. Januar an.",
         "- W @Peter: Aceptó el trabajo en @Siemens en Múnich; empieza el 8 de enero.",
         "- W @Peter: A accepté le poste chez @Siemens à Munich ; commence le 8 janvier.",
         "- W @Peter: Aceitou o emprego na @Siemens em Munique; começa em 8 de janeiro.",
         "- W @Peter: 接受了慕尼黑@Siemens的工作，1月8日入职。",
         "- W @Peter: ミュンヘンの@Siemensの仕事を引き受けた。1月8日から働き始める。"),
        ("- O(c=0.8) @Priya: Dislikes open-plan offices; prefers working from home on Fridays.",
         "- O(c=0.8) @Priya: Mag keine Großraumbüros; arbeitet freitags lieber von zu Hause.",
         "- O(c=0.8) @Priya: No le gustan las oficinas abiertas; prefiere trabajar desde casa los viernes.",
         "- O(c=0.8) @Priya: N'aime pas les open spaces ; préfère télétravailler le vendredi.",
         "- O(c=0.8) @Priya: Não gosta de escritórios abertos; prefere trabalhar de casa às sextas.",
         "- O(c=0.8) @Priya: 不喜欢开放式办公室；周五更喜欢在家办公。",
         "- O(c=0.8) @Priya: オープンオフィスが苦手。金曜日は在宅勤務のほうがいい。"),
    ]),
    ("2025-11-21", [
        ("- Team retro: the deployment pipeline takes forty minutes, far too long.",
         "- Team-Retro: Die Deployment-Pipeline braucht vierzig Minuten, viel zu lange.",
         "- Retro del equipo: el pipeline de despliegue tarda cuarenta minutos, demasiado.",
         "- Rétro d'équipe : le pipeline de déploiement prend quarante minutes, beaucoup trop.",
         "- Retro do time: o pipeline de deploy leva quarenta minutos, tempo demais.",
         "- 团队复盘：部署流水线要四十分钟，太慢了。",
         "- チームの振り返り：デプロイのパイプラインに40分かかる。長すぎる。"),
        ("- Tom suggested splitting the test suite into four parallel jobs.",
         "- Tom hat vorgeschlagen, die Testsuite in vier parallele Jobs aufzuteilen.",
         "- Tom propuso dividir la batería de pruebas en cuatro trabajos paralelos.",
         "- Tom a proposé de découper la suite de tests en quatre jobs parallèles.",
         "- O Tom sugeriu dividir a suíte de testes em quatro jobs paralelos.",
         "- Tom建议把测试套件拆成四个并行任务。",
         "- Tomがテストスイートを4つの並列ジョブに分けることを提案した。"),
    ], [
        ("- W @Priya: Signed the contract with @Fernwerk; starts on January 2.",
         "- W @Priya: Hat den Vertrag mit @Fernwerk unterschrieben; fängt am 2. Januar an.",
         "- W @Priya: Firmó el contrato con @Fernwerk; empieza el 2 de enero.",
         "- W @Priya: A signé le contrat avec @Fernwerk ; commence le 2 janvier.",
         "- W @Priya: Assinou o contrato com a @Fernwerk; começa em 2 de janeiro.",
         "- W @Priya: 和@Fernwerk签了合同，1月2日入职。",
         "- W @Priya: @Fernwerkと契約した。1月2日から勤務。"),
        ("- O(c=0.9) @Tom: Believes code reviews should happen within one day.",
         "- O(c=0.9) @Tom: Ist überzeugt, dass Code-Reviews innerhalb eines Tages passieren sollten.",
         "- O(c=0.9) @Tom: Cree que las revisiones de código deben hacerse en un día.",
         "- O(c=0.9) @Tom: Pense que les revues de code doivent se faire en un jour.",
         "- O(c=0.9) @Tom: Acha que as revisões de código devem acontecer em um dia.",
         "- O(c=0.9) @Tom: 认为代码评审应该在一天之内完成。",
         "- O(c=0.9) @Tom: コードレビューは1日以内にやるべきだと考えている。"),
    ]),
    ("2025-11-24", [
        ("- Peter found a flat in Munich-Schwabing, two rooms with a balcony.",
         "- Peter hat eine Wohnung in München-Schwabing gefunden, zwei Zimmer mit Balkon.",
         "- Peter encontró un piso en Múnich-Schwabing, dos habitaciones con balcón.",
         "- Peter a trouvé un appartement à Munich-Schwabing, deux pièces avec balcon.",
         "- O Peter achou um apartamento em Munique-Schwabing, dois quartos com varanda.",
         "- Peter在慕尼黑Schwabing区找到了一套两居室，带阳台。",
         "- PeterがミュンヘンのSchwabingでバルコニー付きの2部屋の物件を見つけた。"),
        ("- The invoice export failed with error code E4012 again; the disk was full.",
         "- Der Rechnungsexport ist wieder mit Fehlercode E4012 abgebrochen; die Platte war voll.",
         "- La exportación de facturas volvió a fallar con el código de error E4012; el disco estaba lleno.",
         "- L'export des factures a encore échoué avec le code d'erreur E4012 ; le disque était plein.",
         "- A exportação de faturas falhou de novo com o código de erro E4012; o disco estava cheio.",
         "- 发票导出又失败了，错误码E4012；磁盘满了。",
         "- 請求書のエクスポートがまたエラーコードE4012で失敗した。ディスクがいっぱいだった。"),
    ], [
        ("- W @Peter: Moves to Munich on December 15.",
         "- W @Peter: Zieht am 15. Dezember nach München.",
         "- W @Peter: Se muda a Múnich el 15 de diciembre.",
         "- W @Peter: Déménage à Munich le 15 décembre.",
         "- W @Peter: Muda para Munique em 15 de dezembro.",
         "- W @Peter: 12月15日搬到慕尼黑。",
         "- W @Peter: 12月15日にミュンヘンへ引っ越す。"),
        ("- W @Mara: Started a pottery course on Monday evenings.",
         "- W @Mara: Hat montagabends einen Töpferkurs angefangen.",
         "- W @Mara: Empezó un curso de cerámica los lunes por la noche.",
         "- W @Mara: A commencé un cours de poterie le lundi soir.",
         "- W @Mara: Começou um curso de cerâmica às segundas à noite.",
         "- W @Mara: 开始在每周一晚上上陶艺课。",
         "- W @Mara: 月曜の夜に陶芸教室に通い始めた。"),
    ]),
    ("2025-11-25", [
        ("- Bought Mara a birthday gift: a book about Japanese ceramics.",
         "- Ein Geburtstagsgeschenk für Mara gekauft: ein Buch über japanische Keramik.",
         "- Compré un regalo de cumpleaños para Mara: un libro sobre cerámica japonesa.",
         "- Acheté un cadeau d'anniversaire pour Mara : un livre sur la céramique japonaise.",
         "- Comprei um presente de aniversário para a Mara: um livro sobre cerâmica japonesa.",
         "- 给Mara买了生日礼物：一本关于日本陶瓷的书。",
         "- Maraの誕生日プレゼントを買った。日本の陶磁器についての本。"),
        ("- Priya's farewell lunch at Nordbank is planned for December 19.",
         "- Priyas Abschiedsessen bei der Nordbank ist für den 19. Dezember geplant.",
         "- La comida de despedida de Priya en Nordbank está prevista para el 19 de diciembre.",
         "- Le déjeuner d'adieu de Priya chez Nordbank est prévu pour le 19 décembre.",
         "- O almoço de despedida da Priya no Nordbank está marcado para 19 de dezembro.",
         "- Priya在Nordbank的告别午餐定在12月19日。",
         "- PriyaのNordbankでの送別ランチは12月19日の予定。"),
    ], [
        ("- O(c=0.5) @Peter: No longer thinks Vienna is the best city to live in.",
         "- O(c=0.5) @Peter: Findet nicht mehr, dass Wien die beste Stadt zum Leben ist.",
         "- O(c=0.5) @Peter: Ya no cree que Viena sea la mejor ciudad para vivir.",
         "- O(c=0.5) @Peter: Ne pense plus que Vienne soit la meilleure ville où vivre.",
         "- O(c=0.5) @Peter: Já não acha que Viena seja a melhor cidade para morar.",
         "- O(c=0.5) @Peter: 不再认为维也纳是最适合居住的城市。",
         "- O(c=0.5) @Peter: ウィーンが一番住みやすい街だとはもう思っていない。"),
        ("- W @Lea: Returns from parental leave on February 3.",
         "- W @Lea: Kommt am 3. Februar aus der Elternzeit zurück.",
         "- W @Lea: Vuelve de la baja parental el 3 de febrero.",
         "- W @Lea: Revient de congé parental le 3 février.",
         "- W @Lea: Volta da licença parental em 3 de fevereiro.",
         "- W @Lea: 2月3日休完育儿假回来。",
         "- W @Lea: 2月3日に育休から復帰する。"),
    ]),
    ("2025-11-26", [
        ("- Tom split the test suite; the pipeline now takes twelve minutes.",
         "- Tom hat die Testsuite aufgeteilt; die Pipeline braucht jetzt zwölf Minuten.",
         "- Tom dividió la batería de pruebas; el pipeline ahora tarda doce minutos.",
         "- Tom a découpé la suite de tests ; le pipeline prend maintenant douze minutes.",
         "- O Tom dividiu a suíte de testes; o pipeline agora leva doze minutos.",
         "- Tom拆分了测试套件；流水线现在只要十二分钟。",
         "- Tomがテストスイートを分割した。パイプラインは今12分で終わる。"),
        ("- Reminder: Mara's birthday is on November 29.",
         "- Erinnerung: Maras Geburtstag ist am 29. November.",
         "- Recordatorio: el cumpleaños de Mara es el 29 de noviembre.",
         "- Rappel : l'anniversaire de Mara est le 29 novembre.",
         "- Lembrete: o aniversário da Mara é em 29 de novembro.",
         "- 提醒：Mara的生日是11月29日。",
         "- リマインダー：Maraの誕生日は11月29日。"),
    ], [
        ("- B @Peter: I sent Peter the moving checklist.",
         "- B @Peter: Ich habe Peter die Umzugscheckliste geschickt.",
         "- B @Peter: Le envié a Peter la lista para la mudanza.",
         "- B @Peter: J'ai envoyé à Peter la liste pour le déménagement.",
         "- B @Peter: Mandei ao Peter a lista da mudança.",
         "- B @Peter: 我把搬家清单发给了Peter。",
         "- B @Peter: Peterに引っ越しのチェックリストを送った。"),
        ("- O(c=0.7) @Mara: Prefers small dinners to big parties.",
         "- O(c=0.7) @Mara: Zieht kleine Abendessen großen Partys vor.",
         "- O(c=0.7) @Mara: Prefiere las cenas pequeñas a las fiestas grandes.",
         "- O(c=0.7) @Mara: Préfère les petits dîners aux grandes fêtes.",
         "- O(c=0.7) @Mara: Prefere jantares pequenos a festas grandes.",
         "- O(c=0.7) @Mara: 比起大型派对更喜欢小型晚餐。",
         "- O(c=0.7) @Mara: 大きなパーティーより少人数の夕食が好き。"),
    ]),
]

# Bank entity pages, kept by hand: {slug: lines}
PAGES = {
    "Priya": [
        ("- Backend developer and a friend from university.",
         "- Backend-Entwicklerin und eine Freundin aus dem Studium.",
         "- Desarrolladora backend y amiga de la universidad.",
         "- Développeuse backend et amie de la fac.",
         "- Desenvolvedora backend e amiga da faculdade.",
         "- 后端开发，大学时的朋友。",
         "- バックエンド開発者で、大学時代の友人。"),
        ("- Leaves Nordbank for Fernwerk in January.",
         "- Wechselt im Januar von der Nordbank zu Fernwerk.",
         "- Deja Nordbank por Fernwerk en enero.",
         "- Quitte Nordbank pour Fernwerk en janvier.",
         "- Sai do Nordbank para a Fernwerk em janeiro.",
         "- 一月从Nordbank跳槽到Fernwerk。",
         "- 1月にNordbankからFernwerkへ転職する。"),
    ],
    "Peter": [
        ("- Childhood friend; has a dog called Bruno.",
         "- Freund aus Kindertagen; hat einen Hund namens Bruno.",
         "- Amigo de la infancia; tiene un perro llamado Bruno.",
         "- Ami d'enfance ; a un chien qui s'appelle Bruno.",
         "- Amigo de infância; tem um cachorro chamado Bruno.",
         "- 发小；养了一只叫Bruno的狗。",
         "- 幼なじみ。Brunoという名前の犬を飼っている。"),
        ("- Moving from Vienna to Munich in December.",
         "- Zieht im Dezember von Wien nach München.",
         "- Se muda de Viena a Múnich en diciembre.",
         "- Déménage de Vienne à Munich en décembre.",
         "- Vai se mudar de Viena para Munique em dezembro.",
         "- 十二月从维也纳搬到慕尼黑。",
         "- 12月にウィーンからミュンヘンへ引っ越す。"),
    ],
}


def _more(line: tuple[str, ...]) -> tuple[str, ...]:
    """A line of the first seven languages with its it, nl, ru, ko translations (languages_more.py)."""
    return line + LINES[line[0]]


MEMORY = [_more(line) for line in MEMORY]
DAYS = [(day, [_more(line) for line in notes], [_more(line) for line in facts]) for day, notes, facts in DAYS]
PAGES = {slug: [_more(line) for line in lines] for slug, lines in PAGES.items()}


def files(lang: str) -> dict[str, str]:
    """The workspace's files in `lang`: {relative path: text}."""
    at = LANGS.index(lang)
    out = {"MEMORY.md": "# Memory\n\n" + "".join(line[at] + "\n" for line in MEMORY)}
    for day, notes, facts in DAYS:
        text = f"# {day}\n\n{NOTES_HEADING[at]}\n"
        text += "".join(line[at] + "\n" for line in notes)
        text += "\n## Retain\n" + "".join(line[at] + "\n" for line in facts)
        out[f"memory/{day}.md"] = text
    for slug, lines in PAGES.items():
        out[f"bank/entities/{slug}.md"] = f"# {slug}\n\n" + "".join(line[at] + "\n" for line in lines)
    return out
