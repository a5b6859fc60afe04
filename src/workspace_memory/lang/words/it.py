"""Italian: stop words from a maintained list (scripts/gen_stopwords.py); the rest written here."""

# BEGIN stop words (scripts/gen_stopwords.py: the `stop-words` 2025.11.4 list, less content words)
STOPWORDS = frozenset(
    """
    a abbia abbiamo abbiano abbiate accanto ad adesso agl agli ai al alcun alcuno all all' alla alle
    allo allora altra altre altri altro anche ancora appo assai avemmo avendo avere avesse avessero
    avessi avessimo aveste avesti avete aveva avevamo avevano avevate avevi avevo avrai avranno
    avrebbe avrebbero avrei avremmo avremo avreste avresti avrete avrà avrò avuta avute avuti avuto
    avverso ben bene c c' ch' che chi ci cio co' cogli coi col colla colle collo come con contro
    cosa cosi cui d' da dagl dagli dai dal dall dall' dalla dalle dallo de de' degl degli dei del
    dell dell' della delle dello dentro deve devo di dopo dov dove duo durante e ebbe ebbero ebbi
    eccetto ecco ed egli entro era erano eravamo eravate eri ero essendo essere et faccia facciamo
    facciano facciate faccio facemmo facendo facesse facessero facessi facessimo faceste facesti
    faceva facevamo facevano facevate facevi facevo fai fanno farai faranno fare farebbe farebbero
    farei faremmo faremo fareste faresti farete farà farò fece fecero feci fino fosse fossero fossi
    fossimo foste fosti fra fu fui fummo fuori furono gia giu giù gli ha hai hanno ho i il in indi
    indietro infra invece io l l' la le lei li lo loro lui lungo ma mai malgrado me meco mi mia mie
    miei mio molta molti molto ne ne' negl negli nei nel nell nell' nella nelle nello no noi non
    nonostante nostra nostre nostri nostro o ogn' ogni oh oltre ora oue ove pegli pei pel pella
    pello per perche perché pero però piu più pochi poco poi puo pur qua qual qualche qualcun
    qualcuno quale qualmente quanta quante quanti quanto quasi quella quelle quelli quello questa
    queste questi questo qui quindi rispetto s' salvo sara sarai saranno sarebbe sarebbero sarei
    saremmo saremo sareste saresti sarete sarà sarò se seco sei sembra sembrava sempre senza si sia
    siamo siano siate siete solo sono sopra soprattutto sotto sta stai stando stanno starai staranno
    stare starebbe starebbero starei staremmo staremo stareste staresti starete starà starò stati
    stato stava stavamo stavano stavate stavi stavo stemmo stesse stessero stessi stessimo stesso
    steste stesti stette stettero stetti stia stiamo stiano stiate sto su sua subito sue sugl sugli
    sui sul sull sulla sulle sullo suo suoi sù tal tanta tante tanti tanto te teco ti tra tramite
    tranne tu tua tue tuo tuoi tutta tutte tutti tutto un una uno va vai verso vi vn vna vno voi
    volte vostra vostre vostri vostro è
    """.split()
)
# END stop words
# Question frame words the maintained list lacks ("what did I do", "tell me about"): written here.
STOPWORDS = STOPWORDS | frozenset("successo fatto dimmi parlami racconta sai".split())
EVENT_WORDS = frozenset(
    """successo succede accaduto capitato fatto fatta fare novità nuovo nuova qualcosa tutto cose cosa eventi
    evento""".split()
)
QUESTION_STARTS = frozenset(
    """chi che cosa dove quando come quale quali quanto quanta quanti quante perché è sono era ha hanno c'è
    vive lavora""".split()
)
# With their elided forms ("dov'è", "cos'è", "qual è" is two words): one word to the question's reader.
QUESTION_WORDS = frozenset("chi che cosa dove quando come quale quali quanto quanti dov'è cos'è com'è".split())
LEADING_VERBS = frozenset("è sono ha hanno".split())
PRESENT_WORDS = frozenset("è sono ha hanno vive lavora abita dov'è cos'è com'è c'è".split())
NOW_WORDS = frozenset("adesso ora attualmente attuale oggi".split())
PAST_WORDS = frozenset("era erano aveva avevano prima precedente ex primo".split())
NOW_PHRASES = ("in questo momento", "di questi tempi")
PAST_PHRASES = ("all'inizio", "una volta")
OPINION_WORDS = frozenset(
    """preferisce preferiscono preferenza pensa pensano opinione piace piacciono ama odia crede credono
    preferito preferita vuole vogliono""".split()
)
LABELS = frozenset(
    """nota note compito compiti decisione decisioni stato riassunto idea idee domanda domande risposta risultato
    risultati errore avviso fatto prossimo obiettivo obiettivi piano problema motivo contesto consiglio
    importante promemoria aggiornamento registro data ora oggi ieri domani mattina pomeriggio sera notte lunedì
    martedì mercoledì giovedì venerdì sabato domenica gennaio febbraio marzo aprile maggio giugno luglio agosto
    settembre ottobre novembre dicembre""".split()
)
STEMMER = "italian"
# Suffixes that make a noun of a verb, as they end a Snowball stem that keeps them (recall.lexical.with_stem):
# the question's noun is searched by the verb's root too:
# "partenza" (partenz) -> "part": "parte", "partito".
NOUN_SUFFIXES = ("anz", "enz", "iment", "ament")

# A "where" question asks for a place (recall.place): its words, and what names a place in a note.
WHERE_WORDS = frozenset("dove dov'è".split())
# Prepositions of place right before a bare capitalised name ("in Porto"; recall.place).
LOCATIVES = frozenset("a in da presso".split())
