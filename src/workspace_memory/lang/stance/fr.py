"""French words of change and stance (workspace_memory.lang; see lang/stance/en.py for what each holds)."""

ATTRIBUTES = {
    "residence": (r"\bhabit(e|ent|ait)\b", r"\bvi(t|vent|vait) (à|a|en|au|dans|chez)\b", r"\bréside\b",
                  r"\bdomicil\w*\b", r"\bson (appartement|logement) (à|est)\b"),
    "move": (r"\bdéménag\w*\b", r"\bs'est installée?s?\b", r"\bs'installe\b", r"\bemménag\w*\b",
             r"\bparti vivre\b"),
    "whereabouts": (r"\bvisit(é|e|ait)\b", r"\ben voyage\b", r"\ben vacances\b", r"\bweek-end (à|chez)\b",
                    r"\bde retour (à|en)\b", r"\bdu \d+ au \d+\b", r"^(actuellement |en ce moment )?(à|au|en) "
                    r"(?-i:[A-ZÀ-Ý])"),
    "employer": (r"\btravaill(e|ent|ait)( \S+){0,4} (chez|pour)\b", r"\bemployée?\b", r"\bembauchée?\b",
                 r"\brejoint\b", r"\ba commencé (comme|chez)\b", r"\bnouvel? (emploi|poste|travail)\b",
                 r"\bfreelance\b", r"\bcontrat (avec|chez|comme)\b", r"\ba quitté (@|son poste|l'entreprise)"),
    "relationship": (r"\ben couple\b", r"\bmariée?s?\b", r"\bfiancée?\b",
                     r"\b(est|a|nouvelle|nouveau) (\S+ )?(copine|copain|petite amie|petit ami|compagnon|compagne|épouse|époux|mari)\b",
                     r"\bséparée?s?\b", r"\bdivorcée?\b", r"\ba rompu\b", r"\bsort avec\b"),
    "role": (r"\bpromue?\b", r"\bnommée?\b", r"\b(chef|cheffe|directeur|directrice|responsable|manager) (de|du|des)\b",
             r"\bposte de\b", r"\brôle\b", r"\bdirige\b"),
    "status": (r"\ben (bêta|beta|alpha|pause|cours|production)\b",
               r"\b(suspendue?|annulée?|lancée?|terminée?|achevée?|bloquée?|arrêtée?)s?\b", r"\breprise?\b",
               r"\bstatut\b"),
    "date": (r"\bprévue?s? (pour|le)\b", r"\bprogrammée?s? (pour|le)\b", r"\b(repouss|report|décal|avanc)ée?s?\b",
             r"\bdate\b", r"\béchéance\b", r"\bdeadline\b"),
}
CHANGE = (r"\bne \S+ plus\b", r"\bn'\S+ plus\b", r"\bquitté\b", r"\barrêté\b", r"\bfini\b", r"\btermine\b")
ASKED = {
    "residence": (r"\b(habite|vit|vivent|domicile|adresse|appartement)\b",),
    "employer": (r"\b(travaille|travail|emploi|employeur|entreprise)\b",),
    "relationship": (r"\b(couple|sort|mariée?|partenaire|copain|copine)\b",),
    "role": (r"\b(rôle|poste|titre|fonction)\b",),
    "status": (r"\b(état|statut|pause|avance)\b",),
    "date": (r"\b(quand|date|prévue?)\b",),
}


POSITIVE = """
bon bonne excellent génial adore aime préfèr recommand fiable rapide utile meilleur parfait formidable
"""
NEGATIVE = """
mauvais mauvaise terrible horrible déteste évite surcoté surestim inutile lent cher décevant compliqué nul
"""
NEGATION = frozenset("pas jamais aucun aucune".split())
NEGATION_PHRASES = ()
CHANGE_CUES = ("maintenant", "désormais", "finalement", "après le", "après la", "depuis le", "depuis la", "depuis que")
CLAUSE = frozenset("mais cependant pourtant quoique".split())
EXCESS = frozenset({"trop", "excessivement"})
ENOUGH = frozenset({"assez", "suffisamment"})
AGAIN = frozenset({"nouveau", "toujours", "encore"})
COPULA = frozenset("est sont était étaient paraît paraissent semble semblent reste restent devient".split())
DEGREE = frozenset("très si assez plutôt vraiment trop peu".split())
STOP = frozenset("""
le la les un une et ou de du des en est sont pour avec par que qui il elle ce ses son sa au aux à
a ont avait dans sur chez comme après avant depuis mais ne pas plus leur leurs nous vous ils elles cette ces
""".split())
