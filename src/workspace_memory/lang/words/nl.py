"""Dutch: stop words from a maintained list (scripts/gen_stopwords.py); the rest written here."""

# BEGIN stop words (scripts/gen_stopwords.py: the `stop-words` 2025.11.4 list, less content words)
STOPWORDS = frozenset(
    """
    aan af al alles als altijd andere ben bij daar dan dat de der deze die dit doch doen door dus
    een eens en er ge geen geweest haar had heb hebben heeft hem het hier hij hoe hun iemand iets ik
    in is ja je kan kon kunnen maar me meer men met mij mijn moet na naar niet niets nog nu of om
    omdat onder ons ook op over reeds te tegen toch toen tot u uit uw van veel voor want waren was
    wat we wel werd wezen wie wij wil worden wordt zal ze zei zelf zich zij zijn zo zonder zou
    """.split()
)
# END stop words
# Question frame words the maintained list lacks ("what did I do", "tell me about"): written here.
STOPWORDS = STOPWORDS | frozenset("gedaan gebeurd gebeurde vertel zeg weet".split())
EVENT_WORDS = frozenset("gebeurd gebeurde gebeurt gedaan nieuw nieuws iets alles dingen ding".split())
QUESTION_STARTS = frozenset(
    """wie wat waar wanneer hoe welke welk waarom hoeveel is zijn was waren heeft hebben kan kunnen woont
    werkt""".split()
)
QUESTION_WORDS = frozenset("wie wat waar wanneer hoe welke welk hoeveel".split())
LEADING_VERBS = frozenset("is zijn heeft hebben kan".split())
PRESENT_WORDS = frozenset("is zijn heeft hebben woont werkt".split())
NOW_WORDS = frozenset("nu momenteel tegenwoordig huidige actueel".split())
PAST_WORDS = frozenset("was waren had hadden vroeger eerder voorheen oud oude eerst".split())
NOW_PHRASES = ("op dit moment", "deze dagen")
PAST_PHRASES = ("in het begin",)
OPINION_WORDS = frozenset(
    """verkiest voorkeur liever vindt vinden denkt denken mening houdt gelooft favoriet wil willen""".split()
)
LABELS = frozenset(
    """notitie notities taak taken besluit beslissing status samenvatting idee ideeën vraag vragen antwoord
    resultaat fout waarschuwing klaar volgende doel plan probleem reden context tip belangrijk herinnering update
    logboek datum tijd vandaag gisteren morgen ochtend middag avond nacht maandag dinsdag woensdag donderdag
    vrijdag zaterdag zondag januari februari maart april mei juni juli augustus september oktober november
    december""".split()
)
STEMMER = "dutch"
# Compounds are one word ("Zahnarzttermin", "tandartsafspraak"): a question's compound no entry holds
# is searched as its parts (recall/lexical.split_compounds).
COMPOUNDS = True

# A "where" question asks for a place (recall.place): its words, and what names a place in a note.
WHERE_WORDS = frozenset("waar waarheen waarvandaan".split())
# Prepositions of place right before a bare capitalised name ("in Porto"; recall.place).
LOCATIVES = frozenset("in naar uit bij".split())
