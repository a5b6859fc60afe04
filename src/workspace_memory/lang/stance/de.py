"""German words of change and stance (workspace_memory.lang; see lang/stance/en.py for what each holds)."""

ATTRIBUTES = {
    "residence": (r"\bwohn(t|en|te|st)\b", r"\bleb(t|en|te)( \S+){0,2} (in|bei|mit|auf)\b", r"\bwohnhaft\b",
                  r"\bzu ?hause in\b", r"\bwohnsitz\b", r"\b(seine|ihre|neue) wohnung in\b"),
    "move": (r"\b(umgezogen|gezogen|übersiedelt)\b", r"\bzieh(t|en) (um|nach)\b", r"\bzog (um|nach)\b",
             r"\bumzug\b"),
    "whereabouts": (r"\bbesuch(t|te|en)?\b", r"\bzu besuch\b", r"\bam wochenende (in|bei)\b", r"\breise nach\b",
                    r"\burlaub in\b", r"\bunterwegs in\b", r"\bzurück in\b", r"\b(gerade|derzeit|zurzeit) in\b",
                    r"\bvom \d+\..{0,20}\bbis\b", r"^(gerade |derzeit )?in (?-i:[A-ZÄÖÜ])"),
    "employer": (r"\barbeite(t|n|te)?( \S+){0,4} (bei|für)\b", r"\b(angestellt|beschäftigt)\b", r"\bangefangen\b",
                 r"\bfängt .{0,30}\ban\b", r"\bneue[rn]? (job|stelle|arbeitgeber)\b", r"\b(job|stelle) (bei|als)\b",
                 r"\bvertrag (bei|mit|als)\b", r"\bgewechselt\b", r"\bwechselt (zu|nach)\b", r"\bfreiberuflich\w*\b",
                 r"\bselbstständig\b", r"\beingestiegen\b"),
    "relationship": (r"\bmit \S+ zusammen\b", r"\bverheiratet\b", r"\bverlobt\b",
                     r"\b(ist|hat|neue|neuer|jetzt) (\S+ )?(partnerin|partner|ehefrau|ehemann|lebensgefährt\w*)\b", r"\bgetrennt\b", r"\bgeschieden\b",
                     r"\bbeziehung\b"),
    "role": (r"\bbefördert\b", r"\bernannt\b", r"\bleite(t|n)\b", r"\w*(leiter|leiterin|chef|chefin)\b",
             r"\brolle\b", r"\bposition\b", r"\bverantwortlich für\b"),
    "status": (r"\b(alpha|beta)\b", r"\b(gestoppt|pausiert|angehalten|abgesagt|gestartet|abgeschlossen|fertig|"
               r"blockiert|live)\b", r"\bauf eis\b", r"\bläuft (wieder|in)\b", r"\bwieder aufgenommen\b", r"\bstatus\b"),
    "date": (r"\b(geplant|angesetzt|terminiert|vorgesehen) (für|am|auf)\b", r"\b(verschoben|verlegt|vorgezogen)\b",
             r"\bfrist\b", r"\btermin\b", r"\bdeadline\b", r"\bstichtag\b"),
}
CHANGE = (r"\bnicht mehr\b", r"\bkein(e|en)? .{0,20}\bmehr\b", r"\bverlassen\b", r"\bgekündigt\b", r"\baufgehört\b",
          r"\bausgezogen\b", r"\bendet\b", r"\bbeendet\b")
ASKED = {
    "residence": (r"\b(wohnt|wohnen|lebt|wohnort|adresse|wohnung|zuhause)\b",),
    "employer": (r"\b(arbeitet|arbeiten|job|arbeitgeber|firma|stelle)\b",),
    "relationship": (r"\b(zusammen|partner|partnerin|verheiratet|freundin|freund|beziehung)\b",),
    "role": (r"\b(rolle|position|jobtitel|titel|funktion)\b",),
    "status": (r"\b(stand|status|gestoppt|läuft)\b",),
    "date": (r"\b(wann|datum|termin|geplant|erscheint)\b",),
}


POSITIVE = """
gut super toll prima hervorragend ausgezeichnet liebe mag mögen gefällt bevorzug empfehl zuverlässig
schnell nützlich sinnvoll genial praktisch einfach großartig klasse passt lohnt wert
"""
NEGATIVE = """
schlecht schrecklich furchtbar hasse hass meide vermeid überbewert nutzlos langsam kaputt mühsam
nervig teuer enttäusch umständlich kompliziert überteuert
"""
NEGATION = frozenset("nicht nie niemals kein keine keinen keinem keiner".split())
NEGATION_PHRASES = ("nicht mehr",)
CHANGE_CUES = ("jetzt", "inzwischen", "mittlerweile", "nicht mehr", "doch", "nach dem", "seit dem", "seitdem", "seit")
CLAUSE = frozenset("aber jedoch obwohl während wenn".split())
EXCESS = frozenset({"zu", "allzu", "übermäßig"})
ENOUGH = frozenset({"genug", "ausreichend"})
AGAIN = frozenset({"wieder", "immer", "noch"})
COPULA = frozenset("ist sind war waren wirkt wirken scheint scheinen bleibt bleiben wurde wurden".split())
DEGREE = frozenset("sehr so ziemlich recht wirklich echt total etwas zu allzu".split())
STOP = frozenset("""
der die das und oder ein eine ist sind war für mit von zu im in den dem des auf es er sie ich wir seine ihre sein
ihr einen einem einer nach seit am an aus bei noch immer wieder sehr so auch nur schon mehr
hat haben wird wurde nicht sich dass wie als vom zum zur über unter durch gegen ohne um
""".split())
