"""German: stop words from a maintained list (scripts/gen_stopwords.py); the rest written here."""

# BEGIN stop words (scripts/gen_stopwords.py: the `stop-words` 2025.11.4 list, less content words)
STOPWORDS = frozenset(
    """
    aber alle allem allen aller alles als also am an ander andere anderem anderen anderer anderes
    anderm andern anders auch auf aus bei bin bis bist da dadurch daher damit dann darum das dass
    dasselbe dazu daß dein deine deinem deinen deiner deines dem demselben den denn denselben der
    derer derselbe derselben des deshalb desselben dessen dich die dies diese dieselbe dieselben
    diesem diesen dieser dieses dir doch dort du durch ein eine einem einen einer eines einig einige
    einigem einigen einiger einiges einmal er es etwas euch euer eure eurem euren eurer eures für
    gegen gewesen hab habe haben hat hatte hatten hattest hattet hier hin hinter ich ihm ihn ihnen
    ihr ihre ihrem ihren ihrer ihres im in indem ins ist ja jede jedem jeden jeder jedes jene jenem
    jenen jener jenes jetzt kann kannst kein keine keinem keinen keiner keines können könnt könnte
    man manche manchem manchen mancher manches mein meine meinem meinen meiner meines mich mir mit
    muss musst musste muß mußt müssen müßt nach nachdem nein nicht nichts noch nun nur ob oder ohne
    sehr seid sein seine seinem seinen seiner seines selbst sich sie sind so solche solchem solchen
    solcher solches soll sollen sollst sollt sollte sondern sonst soweit sowie um und uns unser
    unsere unserem unseren unserer unseres unter viel vom von vor wann war waren warst warum was weg
    weil weiter weitere welche welchem welchen welcher welches wenn wer werde werden werdet weshalb
    wie wieder wieso will wir wird wirst wo woher wohin wollen wollte während würde würden zu zum
    zur zwar zwischen über
    """.split()
)
# END stop words
# Question frame words the maintained list lacks ("what did I do", "tell me about"): written here.
STOPWORDS = STOPWORDS | frozenset("gemacht getan passiert passierte erzähl erzähle sag sage weißt".split())
EVENT_WORDS = frozenset(
    """passiert passierte geschehen geschah los neu neues neuigkeiten gemacht getan gemacht unternommen erlebt
    ereignisse ereignis sache sachen alles etwas war""".split()
)
QUESTION_STARTS = frozenset(
    """wer was wo wann wie warum wieso weshalb welche welcher welches welchen welchem wohin woher wessen wem wen
    ist sind war waren hat haben hatte hatten wird werden kann können soll sollen muss müssen gibt gab
    arbeitet wohnt""".split()
)
QUESTION_WORDS = frozenset("wer was wo wann wie welche welcher welches welchen welchem wessen wem wen".split())
LEADING_VERBS = frozenset("ist sind hat haben kann können gibt".split())
PRESENT_WORDS = frozenset("ist sind hat haben wohnt arbeitet lebt macht gibt".split())
NOW_WORDS = frozenset("jetzt aktuell derzeit momentan inzwischen zurzeit gerade heutzutage".split())
PAST_WORDS = frozenset("war waren hatte hatten früher vorher damals zuerst ehemals ehemalige ehemaliger".split())
NOW_PHRASES = ("im moment", "zur zeit")
PAST_PHRASES = ("am anfang", "zu beginn")
OPINION_WORDS = frozenset(
    """bevorzugt bevorzugen bevorzuge vorliebe lieber mag mögen magst denkt denken hält halten findet finden
    meinung meint meinen ansicht liebt lieben hasst hassen gefällt gefallen glaubt glauben lieblings
    vorziehen will wollen""".split()
) | {"zieht vor", "ziehen vor", "ziehst vor"}  # separable: "zieht" alone also moves ("zieht um", "zieht nach")
LABELS = frozenset(
    """notiz notizen aufgabe aufgaben todo entscheidung entscheidungen beschluss status zusammenfassung idee ideen
    frage fragen antwort ergebnis ergebnisse fehler warnung erledigt nächstes ziel ziele plan pläne problem
    grund kontext hinweis tipp wichtig erinnerung update protokoll datum zeit heute gestern morgen vormittag
    nachmittag abend nacht montag dienstag mittwoch donnerstag freitag samstag sonntag januar februar märz april
    mai juni juli august september oktober november dezember""".split()
)
STEMMER = "german"
# Compounds are one word ("Zahnarzttermin", "tandartsafspraak"): a question's compound no entry holds
# is searched as its parts (recall/lexical.split_compounds).
COMPOUNDS = True

# A "where" question asks for a place (recall.place): its words, and what names a place in a note.
WHERE_WORDS = frozenset("wo wohin woher".split())
# Prepositions of place right before a bare capitalised name ("in Porto"; recall.place).
LOCATIVES = frozenset("in nach aus bei".split())
