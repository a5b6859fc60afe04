"""Portuguese: stop words from a maintained list (scripts/gen_stopwords.py); the rest written here."""

# BEGIN stop words (scripts/gen_stopwords.py: the `stop-words` 2025.11.4 list, less content words)
STOPWORDS = frozenset(
    """
    a acerca afora agora algmas alguns ali ambos ante antes ao aos apontar após aquela aquelas
    aquele aqueles aqui aquilo as atrás até bem bom cada cima com como connosco consoante contra da
    das de debaixo dela delas dele deles dentro depois desde deve devem deverá diante diz dizer do
    dos durante e ela elas ele eles em enquanto entre então era eram escontra essa essas esse esses
    esta estado estamos estar estará estas estava estavam este esteja estejam estejamos estes esteve
    estive estivemos estiver estivera estiveram estiverem estivermos estivesse estivessem
    estivéramos estivéssemos estou está estávamos estão eu excepto exceto fará faz fazer fazia fez
    fim foi fomos for fora foram forem formos fosse fossem fui fôramos fôssemos haja hajam hajamos
    havemos havia hei houve houvemos houver houvera houveram houverei houverem houveremos houveria
    houveriam houvermos houverá houverão houveríamos houvesse houvessem houvéramos houvéssemos há
    hão in inté ir irá isso ista iste isto já lhe lhes mais malgrado mas me mediante menos mesmo meu
    meus minha minhas muito muitos na nas nem no nos nossa nossas nosso nossos num numa não nós o
    onde os ou outro para parte pela pelas pelo pelos per pera perante pode poderá podia por porque
    pra prà qtínhamos qual qualquer quando que quem quê saber salvante salvo se segundo seja sejam
    sejamos sem senão ser serei seremos seria seriam será serão seríamos seu seus sob sobre somente
    somos sou sua suas suso são só tal também te tem temos tenha tenham tenhamos tenho tentar
    tentaram tente tentei ter terei teremos teria teriam terá terão teríamos teu teus teve tinha
    tinham tirante tive tivemos tiver tivera tiveram tiverem tivermos tivesse tivessem tivéramos
    tivéssemos todos trás tu tua tuas tém têm tínhamos um uma umas uns veja ver viaúltimo você vocês
    vos à às é éramos
    """.split()
)
# END stop words
# Question frame words the maintained list lacks ("what did I do", "tell me about"): written here.
STOPWORDS = STOPWORDS | frozenset("aconteceu fiz fizemos feito fala conta diz sabe".split())
EVENT_WORDS = frozenset(
    """aconteceu acontece acontecendo houve passou fiz fizemos fez feito fazer novidades novidade novo nova algo
    tudo coisas coisa eventos evento""".split()
)
QUESTION_STARTS = frozenset(
    """o que quê quem onde quando como qual quais quanto quanta quantos quantas por é são está estão era foi tem
    têm há pode mora trabalha""".split()
)
QUESTION_WORDS = frozenset("quê quem onde quando como qual quais quanto quantos".split())
LEADING_VERBS = frozenset("é são está estão tem têm há".split())
PRESENT_WORDS = frozenset("é são está estão tem têm mora trabalha vive há".split())
NOW_WORDS = frozenset("agora atualmente atual hoje".split())
PAST_WORDS = frozenset("era eram foi foram estava estavam tinha tinham antes antigo antiga anterior primeiro".split())
NOW_PHRASES = ("no momento", "hoje em dia", "estes dias", "esses dias")
PAST_PHRASES = ("no começo", "no início", "costumava")
OPINION_WORDS = frozenset(
    """prefere preferem preferência preferências pensa pensam acha acham opinião gosta gostam adora odeia
    acredita sente favorito favorita quer querem""".split()
)
LABELS = frozenset(
    """nota notas tarefa tarefas pendência decisão decisões status resumo ideia ideias pergunta perguntas resposta
    resultado resultados erro aviso feito próximo objetivo objetivos plano planos problema motivo contexto dica
    importante lembrete atualização registro data hora hoje ontem amanhã manhã tarde noite segunda-feira
    terça-feira quarta-feira quinta-feira sexta-feira segunda terça quarta quinta sexta sábado domingo janeiro
    fevereiro março abril maio junho julho agosto setembro outubro novembro dezembro""".split()
)
STEMMER = "portuguese"
# Suffixes that make a noun of a verb, as they end a Snowball stem that keeps them (recall.lexical.with_stem):
# the question's noun is searched by the verb's root too:
# "mudança" (mudanc) -> "mud": "muda", "mudou"; "nascimento" -> "nasc": "nasceu".
NOUN_SUFFIXES = ("anc", "enc", "iment", "ament")

# A "where" question asks for a place (recall.place): its words, and what names a place in a note.
WHERE_WORDS = frozenset("onde aonde".split())
# Prepositions of place right before a bare capitalised name ("in Porto"; recall.place).
LOCATIVES = frozenset("em no na desde".split())
