"""Spanish: stop words from a maintained list (scripts/gen_stopwords.py); the rest written here."""

# BEGIN stop words (scripts/gen_stopwords.py: the `stop-words` 2025.11.4 list, less content words)
STOPWORDS = frozenset(
    """
    a acerca actualmente adelante además adonde afirmó agregó ahora ahí al algo alguna algunas
    alguno algunos algún allende alrededor ambos amén ante anterior antes apenas aproximadamente
    aquel aquellas aquellos aqui aquí arriba aseguró así atras aun aunque añadió aún bajo bastante
    bien cabe cada casi cerca cierta ciertas cierto ciertos circa comentó como con conmigo connosco
    conseguimos conseguir considera consideró consigo consigue consiguen consigues contigo contra
    convosco convusco cosas creo cual cuales cualquier cuando cuanto cómo da dado dan dar de debe
    deben debido decir dejante dejó del delas demás dentro desde después dice dicen dicho dieron
    diferente diferentes dijeron dijo dio donde durante e el ella ellas ello ellos embargo en encima
    encuentra entonces entre era erais eramos eran erar eras eres es esa esas ese eso esos esta
    estaba estabais estaban estabas estad estada estadas estado estados estais estamos estan estando
    estar estaremos estará estarán estarás estaré estaréis estaría estaríais estaríamos estarían
    estarías estas este estemos esto estos estoy estuve estuviera estuvierais estuvieran estuvieras
    estuvieron estuviese estuvieseis estuviesen estuvieses estuvimos estuviste estuvisteis
    estuviéramos estuviésemos estuvo está estábamos estáis están estás esté estéis estén estés ex
    excepto existe existen explicó expresó fue fuera fuerais fueran fueras fueron fuese fueseis
    fuesen fueses fui fuimos fuiste fuisteis fuéramos fuésemos gueno ha haber habida habidas habido
    habidos habiendo habremos habrá habrán habrás habré habréis habría habríais habríamos habrían
    habrías habéis había habíais habíamos habían habías hace haceis hacemos hacen hacer hacerlo
    haces hacia haciendo hago han has hasta hay haya hayamos hayan hayas hayáis haz he hecho hemo
    hemos hicieron hizo hube hubiera hubierais hubieran hubieras hubieron hubiese hubieseis hubiesen
    hubieses hubimos hubiste hubisteis hubiéramos hubiésemos hubo igual incluso indicó informó
    intenta intentais intentamos intentan intentar intentas intento ir junto la las le les llegó
    lleva llevar lo los luego manifestó me mediante mencionó menos mi miar mientras mio mis misma
    mismas mismo mismos modo modode mucha muchas mucho muchos muy más mí mía mías mío míos na nada
    nadie ni ninguna ningunas ninguno ningunos ningún no nos nosotras nosotros nuestra nuestras
    nuestro nuestros nunca o os otra otras otro otros pa pa' par para parece parte partir pasada
    pasado pero pesar poca pocas poco pocos podeis podemos poder podria podriais podriamos podrian
    podrias podrá podrán podría podrían poner por porque posible principalmente pro propia propias
    propio propios pudo pueda puede pueden puedo pues que quedó queremos quien quienes quiere quién
    qué respecto sabe sabeis sabemos saben saber sabes salvo se sea seamos sean seas según ser
    seremos será serán serás seré seréis sería seríais seríamos serían serías seáis señaló si sido
    siempre siendo sigue siguiente sin sino so sobre sois sola solamente solas solo solos somos son
    soy su sus suya suyas suyo suyos sí sólo tal también tampoco tan tanto te tendremos tendrá
    tendrán tendrás tendré tendréis tendría tendríais tendríamos tendrían tendrías tened teneis
    tenemos tener tenga tengamos tengan tengas tengo tengáis tenida tenidas tenido tenidos teniendo
    tenéis tenía teníais teníamos tenían tenías ti tiene tienen tienes toda todas todavía todo todos
    tras trata través tu tus tuve tuviera tuvierais tuvieran tuvieras tuvieron tuviese tuvieseis
    tuviesen tuvieses tuvimos tuviste tuvisteis tuviéramos tuviésemos tuvo tuya tuyas tuyo tuyos tú
    un una unas uno unos usted va vais vamos van varias varios vaya veces ver versus vez vosostras
    vosostros vosotras vosotros voy vuestra vuestras vuestro vuestros vusco vía y ya yo áestarían él
    éramos ésta éstas éste éstos
    """.split()
)
# END stop words
# Question frame words the maintained list lacks ("what did I do", "tell me about"): written here.
STOPWORDS = STOPWORDS | frozenset("pasó hice hicimos hiciste hecho háblame dime cuéntame sabes".split())
EVENT_WORDS = frozenset(
    """pasó pasa pasado ocurrió ocurre sucedió hice hicimos hiciste hizo hecho hacer novedades nuevo nueva
    algo todo cosas cosa eventos evento""".split()
)
QUESTION_STARTS = frozenset(
    """qué que quién quiénes quien dónde donde cuándo cuando cómo como cuál cuáles cuánto cuánta cuántos cuántas
    por es son está están era fue tiene tienen hay puede vive trabaja""".split()
)
QUESTION_WORDS = frozenset("qué quién quiénes dónde cuándo cómo cuál cuáles cuánto cuántos".split())
LEADING_VERBS = frozenset("es son está están tiene tienen hay".split())
# A Spanish question has no auxiliary: the present is in the verb itself (the verbs a question about
# a person's state asks with: is, has, lives, works, thinks, believes, prefers, goes out with / comes out).
PRESENT_WORDS = frozenset("es son está están tiene tienen vive trabaja hay piensa opina cree prefiere sale".split())
NOW_WORDS = frozenset("ahora actualmente actual hoy".split())
PAST_WORDS = frozenset("era eran fue fueron estaba estaban tenía tenían antes antiguo antigua anterior primero".split())
NOW_PHRASES = ("en este momento", "hoy en día", "estos días")
PAST_PHRASES = ("al principio", "solía", "en aquel entonces")
OPINION_WORDS = frozenset(
    """prefiere prefieren prefieres preferencia preferencias piensa piensan opina opinan opinión parece gusta
    gustan encanta odia cree creen siente favorito favorita quiere quieren""".split()
)
LABELS = frozenset(
    """nota notas tarea tareas pendiente decisión decisiones estado resumen idea ideas pregunta preguntas respuesta
    resultado resultados error aviso hecho siguiente objetivo objetivos plan planes problema motivo contexto
    consejo importante recordatorio actualización registro fecha hora hoy ayer mañana tarde noche lunes martes
    miércoles jueves viernes sábado domingo enero febrero marzo abril mayo junio julio agosto septiembre octubre
    noviembre diciembre""".split()
)
STEMMER = "spanish"
# Suffixes that make a noun of a verb, as they end a Snowball stem that keeps them (recall.lexical.with_stem):
# the question's noun is searched by the verb's root too:
# "mudanza" (mudanz) -> "mud": "se muda", "mudarse"; "nacimiento" -> "nac": "nació".
NOUN_SUFFIXES = ("anz", "anci", "enci", "imient", "amient")

# A "where" question asks for a place (recall.place): its words, and what names a place in a note.
WHERE_WORDS = frozenset("dónde donde adónde adonde".split())
# Prepositions of place right before a bare capitalised name ("in Porto"; recall.place).
LOCATIVES = frozenset("en desde".split())
