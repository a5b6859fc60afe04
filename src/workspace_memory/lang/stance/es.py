"""Spanish words of change and stance (workspace_memory.lang; see lang/stance/en.py for what each holds)."""

ATTRIBUTES = {
    "residence": (r"\bviv(e|en|ía|imos)\b", r"\breside\b", r"\bsu casa (es|está)\b", r"\bresidencia\b",
                  r"\bdomicilio\b"),
    "move": (r"\bse (mudó|muda|mudará|mudaron|trasladó|traslada|trasladaron)\b", r"\bmudanza\b", r"\bmudarse\b"),
    "whereabouts": (r"\bvisit(ó|a|aron|ando)\b", r"\bde viaje\b", r"\bviaje a\b", r"\bde vacaciones\b",
                    r"\bde vuelta en\b", r"\bdel \d+ al \d+\b", r"^(ahora )?en (?-i:[A-ZÁÉÍÓÚ])"),
    "employer": (r"\btrabaj(a|an|aba|ó)( \S+){0,4} (en|para)\b", r"\bempez(ó|a) (como|en|a trabajar)\b",
                 r"\bentr(ó|a) (en|a)\b", r"\bse unió a\b", r"\bcontratad[oa]\b", r"\bnuevo (trabajo|empleo)\b",
                 r"\bfich(ó|a) por\b", r"\bfreelance\b", r"\bcontrato (con|como|en)\b", r"\bdejó (@|su trabajo|la empresa)"),
    "relationship": (r"\bsale con\b", r"\bcasad[oa]\b", r"\bcomprometid[oa]\b",
                     r"\b(es|tiene|nueva|nuevo|ahora) (\S+ )?(novia|novio|pareja|esposa|esposo|marido)\b", r"\brompi(ó|eron) con\b",
                     r"\bse separ(ó|aron)\b", r"\bseparad[oa]\b", r"\bdivorci\w*\b"),
    "role": (r"\bascendi\w*\b", r"\bnombrad[oa]\b", r"\b(jefe|jefa|director|directora|gerente|responsable|líder) "
             r"(de|del)\b", r"\bpuesto\b", r"\bcargo\b", r"\blidera\b"),
    "status": (r"\ben (beta|alfa|pausa|marcha|curso|producción)\b",
               r"\b(pausad|cancelad|suspendid|detenid|terminad|completad|lanzad|bloquead)[oa]s?\b",
               r"\bse reanud(a|ó)\b", r"\breanudad[oa]\b", r"\bestado\b"),
    "date": (r"\bprevist[oa]s? (para|el)\b", r"\bprogramad[oa]s? (para|el)\b",
             r"\b(aplaz|pospus|pospuest|retrasad|adelantad)\w*\b", r"\bfecha\b", r"\bplazo\b"),
}
CHANGE = (r"\bya no\b", r"\bdejó\b", r"\brenunció\b", r"\btermina\b", r"\bterminó\b")
ASKED = {
    "residence": (r"\b(vive|viven|vivía|reside|casa|dirección|piso)\b",),
    "employer": (r"\b(trabaja|trabajo|empleo|empresa)\b",),
    "relationship": (r"\b(sale|pareja|novio|novia|casad[oa]|sigue con)\b",),
    "role": (r"\b(puesto|cargo|rol)\b",),
    "status": (r"\b(estado|pausa|marcha)\b",),
    "date": (r"\b(cuándo|fecha|prevista|publica)\b",),
}


POSITIVE = """
bueno buena buen genial excelente encanta gusta prefier recomiend fiable rápid útil fantástic mejor maravill
encaja
"""
NEGATIVE = """
malo mala mal terrible horrible odio odia evito evita sobrevalor inútil lent caro decepcion complicad
"""
NEGATION = frozenset("no nunca jamás tampoco".split())
NEGATION_PHRASES = ("ya no",)
CHANGE_CUES = ("ahora", "ya no", "al final", "después de todo", "después de", "desde que", "desde el")
CLAUSE = frozenset("pero sino aunque mientras".split())
EXCESS = frozenset({"demasiado", "demasiada", "demasiados", "demasiadas", "excesivamente"})
ENOUGH = frozenset({"suficientemente", "suficiente"})
AGAIN = frozenset({"vuelven", "vuelve", "sigue", "siguen", "todavía", "aún", "otra"})
COPULA = frozenset("es son está están era eran parece parecen resulta resultan sigue siguen ser".split())
DEGREE = frozenset("muy bastante tan demasiado demasiada demasiados demasiadas algo realmente".split())
STOP = frozenset("""
el la los las un una y o de del en es son para con por que lo se su sus al ya muy más
como pero desde hasta sobre entre cuando donde le les nos está están fue ha han a todo toda todos todas
""".split())
