"""Write the stop words of src/workspace_memory/lang/words/<code>.py from the `stop-words` package's lists.

    pip download --no-deps stop-words==2025.11.4 -d /tmp/sw && unzip -o /tmp/sw/stop_words-*.whl -d /tmp/sw
    python scripts/gen_stopwords.py /tmp/sw/stop_words/stop-words

`stop-words` (BSD-3-Clause, https://github.com/Alir3z4/python-stop-words) keeps maintained lists for
34 languages. They are made for search engines that drop every common word, and so hold words a
question asks about: "trabajo" (work), "tiempo", "personne", "état", "lavoro", "persone", "trabalho",
"nome". A stop word here is a word that carries nothing a note could be found by, so the content words
in CONTENT are taken out. The lists are copied into the modules (between the BEGIN/END lines) rather
than read from the package at run time: a cold recall reads no file it need not, and the package is
not a dependency. English keeps the engine's own list (lang/words/en.py, measured on LoCoMo): the
package's English list (1,333 words) holds "computer", "big", "changes", "information".
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

WORDS = Path(__file__).resolve().parents[1] / "src" / "workspace_memory" / "lang" / "words"
SOURCE = {"de": "german", "es": "spanish", "fr": "french", "pt": "portuguese", "it": "italian", "nl": "dutch",
          "ru": "russian", "ko": "korean"}
CONTENT = {
    "de": "machen",
    "es": """trabajo trabajar trabaja trabajais trabajamos trabajan trabajas tiempo verdad verdadera verdadero valor
          empleo emplear emplean empleas empleais ampleamos lugar lado largo fin fuerza manera momento ejemplo nueva
          nuevas nuevo nuevos gran grandes mayor mejor buen buena buenas bueno buenos ayer hoy cinco cuatro dos tres
          seis siete ocho segunda segundo tercera primer primera primero primeros próximo próximos última últimas
          último últimos ultimo ultimar total sentido sentida sentidas sentidos sentid sentir siente sintiendo uso
          usar usa usas usan usamos usais conocer realizar realizado realizó cabo cuenta""",
    "fr": """personne personnes nom nommé nommée nommés essai état début droite pièce parole mot valeur sujet force
          haut grande plein nouveau nouveaux deux bon chose choses""",
    "pt": """trabalho trabalhar tempo verdade verdadeiro valor caminho cara comprido corrente desligado ligado direita
          horas nome novo povo maioria maiorias iniciar inicio pegar quieto tipo último dois primeiro promeiro
          conhecido usar usa""",
    "it": """lavoro persone gente nome nuovo nuovi comprare consecutivi consecutivo doppio triplo fine grande gran
          maggior maggiore meglio peggio cinque nove otto quattro sette tre due primo secondo terzo quarto quinto
          ultimo buono promesso""",
    "nl": "",
    "ru": """время времени год года году день жизнь люди человек мира имя дел лет хорошо прекрасно лучше важная
          важное важные важный сказал сказала сказать говорил говорит занят занята занято заняты миллионов
          процентов начала один одного одной два две двух три четыре пять шесть семь восемь девять десять
          одиннадцать двенадцать тринадцать четырнадцать пятнадцать шестнадцать семнадцать восемнадцать
          девятнадцать двадцать первый второй третий четвертый пятый шестой седьмой восьмой девятый десятый
          одиннадцатый двенадцатый тринадцатый четырнадцатый пятнадцатый шестнадцатый семнадцатый
          восемнадцатый девятнадцатый двадцатый тысяч рядом далеко близко недалеко""",
    # The Korean list holds phrases (split into their words here), sounds (까악, 꽈당) and some content words.
    "ko": """시간 시각 구토하다 도착하다 도달하다 놀라다 아이 시작하여 생각한대로 비슷하다 년 관계가 관련이 결과에
          결론을 사람들 부류의 메쓰겁다 비걱거리다 삐걱거리다 다섯 아홉 여섯 일곱 여덟 셋 넷 둘 하나""",
}
BEGIN = "# BEGIN stop words (scripts/gen_stopwords.py: the `stop-words` 2025.11.4 list, less content words)"
END = "# END stop words"


def block(code: str, folder: Path) -> str:
    words = (folder / f"{SOURCE[code]}.txt").read_text(encoding="utf-8").split()
    content = set(CONTENT[code].split())
    kept = sorted({w.lower() for w in words if w.lower() not in content and w.replace("'", "").isalpha()})
    body = textwrap.fill(" ".join(kept), width=100, initial_indent="    ", subsequent_indent="    ",
                         break_on_hyphens=False)
    return f'{BEGIN}\nSTOPWORDS = frozenset(\n    """\n{body}\n    """.split()\n)\n{END}'


def main() -> None:
    folder = Path(sys.argv[1])
    for code in SOURCE:
        path = WORDS / f"{code}.py"
        text = path.read_text(encoding="utf-8")
        head, rest = text.split(BEGIN, 1)
        _, tail = rest.split(END, 1)
        path.write_text(head + block(code, folder) + tail, encoding="utf-8")
        print(f"{path}: {len(block(code, folder).split()) - 10} words")


if __name__ == "__main__":
    main()
