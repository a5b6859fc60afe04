"""French: stop words from a maintained list (scripts/gen_stopwords.py); the rest written here."""

# BEGIN stop words (scripts/gen_stopwords.py: the `stop-words` 2025.11.4 list, less content words)
STOPWORDS = frozenset(
    """
    a ai aie aient aies ait alors amp après as attendu au aucun aucuns auec aura aurai auraient
    aurais aurait auras aurez auriez aurions aurons auront aussi autre autres aux avaient avais
    avait avant avec avez aviez avions avoir avons ayant ayante ayantes ayants ayez ayons bien c ca
    car ce ceci cela celà ces cet cette ceux chaque chez ci circa comme comment concernant contre d
    d' dans de dedans dehors dello depuis derrière des dessous dessus devant devers devoir devrait
    devrez devriez devrions devrons devront dire dixit dois doit donc dont dos du durant dès dù elle
    elles emmi en encore endéans entenant entre envers environ es est estre et eu eue eues eurent
    eus eusse eussent eusses eussiez eussions eut eux excepté eûmes eût eûtes faire fais faisez fait
    faites faut fois font fors furent fus fusse fussent fusses fussiez fussions fut fûmes fût fûtes
    hormis hors ici ie il ils im j je joignant jouxte jusque juste l l' la le les leur leurs lez
    lors lui luy là lès m ma maintenant mais malgré me mes mesme mine moi moins mon moyennant même n
    n' ne ni nonobstant nos notre nous on ont or ou outre où par parce parmi pas passé pendant peu
    peut plupart plus plusieurs point pour pourquoi pourquoy puis qu qu' quand que quel quelle
    quelles quels qui quoy rez s sa sans sauf se selon sera serai seraient serais serait seras serez
    seriez serions serons seront ses seulement si sien soi soient sois soit sommes son sont sous
    soyez soyons sub suis suivant sur t ta tandis te tellement tels tes toi ton touchant tous tout
    toutes trop très tu un une vers versus via vn vne voici voie voient voilà vois voit vont vos
    votre vous vs vu y à ça ès étaient étais était étant étante étantes étants étiez étions été étée
    étées étés êtes être êtreau
    """.split()
)
# END stop words
# Question frame words the maintained list lacks ("what did I do", "tell me about"): written here.
STOPWORDS = STOPWORDS | frozenset("fait passé arrivé parle-moi parle dis raconte sais".split())
EVENT_WORDS = frozenset(
    """passé passe arrivé arrive produit fait faits quoi neuf nouveau nouvelles nouveautés chose choses
    événements événement tout""".split()
)
QUESTION_STARTS = frozenset(
    """qui que quoi où quand comment combien pourquoi quel quelle quels quelles lequel laquelle est-ce
    qu'est-ce est sont était a ont""".split()
)
QUESTION_WORDS = frozenset("qui que quoi où quand comment combien quel quelle quels quelles lequel laquelle".split())
LEADING_VERBS = frozenset("est-ce est sont a ont".split())
PRESENT_WORDS = frozenset("est sont a ont habite travaille vit fait pense préfère sort".split())
NOW_WORDS = frozenset("maintenant actuellement actuel actuelle aujourd'hui désormais".split())
PAST_WORDS = frozenset("était étaient avait avaient autrefois avant ancien ancienne auparavant jadis".split())
NOW_PHRASES = ("en ce moment", "ces jours-ci", "de nos jours")
PAST_PHRASES = ("au début", "à l'époque")
OPINION_WORDS = frozenset(
    """préfère préfèrent préférence préférences pense pensent avis opinion aime aiment adore déteste trouve
    trouvent croit croient ressent sent favori favorite veut veulent""".split()
)
LABELS = frozenset(
    """note notes tâche tâches décision décisions statut résumé idée idées question questions réponse résultat
    résultats erreur avertissement fait suivant objectif objectifs plan plans problème raison contexte astuce
    important rappel mise journal date heure aujourd'hui hier demain matin soir nuit lundi mardi mercredi
    jeudi vendredi samedi dimanche janvier février mars avril mai juin juillet août septembre octobre novembre
    décembre""".split()
)
STEMMER = "french"
# Suffixes that make a noun of a verb, as they end a Snowball stem that keeps them (recall.lexical.with_stem):
# the question's noun is searched by the verb's root too:
# "naissance" (naissanc) -> "naiss": "naissent"; "-ement" Snowball cuts itself.
NOUN_SUFFIXES = ("anc", "enc")

# A "where" question asks for a place (recall.place): its words, and what names a place in a note.
WHERE_WORDS = frozenset("où".split())
# Prepositions of place right before a bare capitalised name ("in Porto"; recall.place).
LOCATIVES = frozenset("à en au aux chez depuis".split())
