"""Portuguese words of stance (workspace_memory.lang; see lang/stance/en.py for what each holds)."""

POSITIVE = """
bom boa ótim excelente adoro gosto gosta prefir recomend confiável rápid útil melhor perfeit maravilh
"""
NEGATIVE = """
mau má ruim terrível horrível odeio odeia evito evita superestim inútil lent caro decepcion complicad
"""
NEGATION = frozenset("não nunca jamais nem".split())
NEGATION_PHRASES = ("já não",)
CHANGE_CUES = ("agora", "já não")
CLAUSE = frozenset("mas porém embora".split())
EXCESS = frozenset({"demasiado", "demasiada", "excessivamente"})
ENOUGH = frozenset({"suficientemente"})
AGAIN = frozenset({"novamente", "ainda"})
COPULA = frozenset("é são está estão era eram parece parecem".split())
DEGREE = frozenset("muito bem bastante tão demasiado".split())
STOP = frozenset("""
o a os as um uma e ou de do da dos das em é são para com por que
""".split())
